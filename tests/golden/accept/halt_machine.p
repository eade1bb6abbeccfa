// pcheck-args: --search random --seed 1 --schedules 20
// Sending halt stops a machine; later sends are dropped.
event ePing;
machine Sink { start state S { on ePing do { } } }
machine Main {
  start state S { entry { var s: Sink; s = new Sink(); send s, ePing; send s, halt; send s, ePing; } }
}
