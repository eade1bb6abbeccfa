// pcheck-args: --search random --seed 1 --schedules 20
// A default handler runs when nothing can be dequeued.
machine Main {
  var n: int;
  start state S {
    on null do { n = n + 1; if (n == 2) { goto Done; } }
  }
  state Done { }
}
