// pcheck-args: --search random --seed 1 --schedules 20
// Integer arithmetic: negatives, remainders, large values.
machine Main {
  start state S {
    entry {
      var big: int;
      big = 2147483647 * 2147483647 * 2 + 2147483647 * 4 + 1;   // 2^63 - 1: literals are 32-bit, values 64-bit
      assert big > 0 && -7 / 2 == -3 && -7 % 2 == -1 && 7 % -2 == 1;
    }
  }
}
