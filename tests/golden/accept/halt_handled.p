// pcheck-args: --search random --seed 1 --schedules 20
// A machine may handle halt itself.
machine Main {
  var stopped: bool;
  start state S {
    entry { send this, halt; }
    on halt do { stopped = true; }
  }
}
