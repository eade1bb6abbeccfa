// pcheck-args: --search random --seed 1 --schedules 1 -v
// `on null` runs when nothing can be dequeued.
event eStop;
machine Main {
  var n: int;
  start state Loop {
    on null do {
      n = n + 1;
      print format("null handler {0}", n);
      if (n == 3) { send this, eStop; }
    }
    on eStop goto Done;
  }
  state Done { entry { assert n == 3; } }
}
