// pcheck-args: --search random --seed 1 --schedules 20
// assert with and without a message.
machine Main {
  start state S {
    entry { var x: int; x = 2; assert x == 2; assert x > 1, "x must exceed 1"; assert x < 3, format("x is {0}", x); }
  }
}
