// expect: inbox overflow
// A producer that never waits (issue 34): every reduced search reported
// "complete: no bug (5 states)"; the send past --max-inbox is reachable.
event eTick;
machine Sink { start state S { on eTick do { } } }
machine Main { var sink: Sink;
  start state Init { entry { sink = new Sink(); while (true) { send sink, eTick; } } } }
