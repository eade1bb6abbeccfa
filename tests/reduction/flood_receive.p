// expect: inbox overflow
// The consumer takes each event with a receive in a loop.
event eTick;
machine Sink { start state S { entry { while (true) { receive { case eTick: { } } } } } }
machine Main { var sink: Sink;
  start state Init { entry { sink = new Sink(); while (true) { send sink, eTick; } } } }
