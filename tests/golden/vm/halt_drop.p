// pcheck-args: --search random --seed 1 --schedules 1 -v
// A machine that dequeues halt halts; later sends to it are dropped.
event ePing;
machine Sink {
  start state S { on ePing do { print "Sink got ePing"; } }
}
machine Main {
  start state Init {
    entry {
      var s: Sink;
      s = new Sink();
      send s, halt;
      send s, ePing;
    }
  }
}
