// expect: inbox overflow
// The consumer halts on its first event (sends to it are dropped from
// then on), but the producer may fill its inbox before it takes one.
event eTick;
machine Sink { start state S { on eTick do { raise halt; } } }
machine Main { var sink: Sink;
  start state Init { entry { sink = new Sink(); while (true) { send sink, eTick; } } } }
