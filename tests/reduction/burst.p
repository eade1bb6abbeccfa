// expect: inbox overflow
// A finite model: a burst of 1,001 sends in a loop, then the producer
// stops; the consumer may take none of them before the last.
event eTick;
machine Sink { start state S { on eTick do { } } }
machine Main { var sink: Sink; var i: int;
  start state Init { entry { sink = new Sink(); while (i < 1001) { send sink, eTick; i = i + 1; } } } }
