// pcheck-args: --search random --seed 1 --schedules 1 -v
// An unhandled halt runs the current state's exit function, then the
// machine halts (P); events still in its inbox are dropped.
event ePing;
machine Main {
  start state S {
    entry {
      var w: machine;
      w = new Worker();
      send w, halt;
      send w, ePing;
    }
  }
}
machine Worker {
  start state Busy {
    on ePing do { print "ping"; }
    exit { print "Worker: leaving Busy"; }
  }
}
