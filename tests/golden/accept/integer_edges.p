// pcheck-args: --search random --seed 1 --schedules 20
// Integer arithmetic: negatives, remainders, large values.
machine Main {
  start state S {
    entry {
      var big: int;
      big = 9223372036854775807;
      assert big > 0 && -7 / 2 == -3 && -7 % 2 == -1 && 7 % -2 == 1;
    }
  }
}
