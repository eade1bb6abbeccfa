// pcheck-args: --search random --seed 1 --schedules 20
// float arithmetic and comparison.
machine Main {
  start state S {
    entry { var x: float; x = 2.5; x = x * 2.0 - 1.0; assert x == 4.0 && x > 3.5 && x / 2.0 == 2.0; }
  }
}
