// pcheck-args: --search random --seed 1 --schedules 20
// Nested loops with break in the inner loop only.
machine Main {
  start state S {
    entry {
      var i: int; var j: int; var n: int;
      while (i < 3) {
        j = 0;
        while (true) { j = j + 1; if (j > 2) { break; } n = n + 1; }
        i = i + 1;
      }
      assert n == 6;
    }
  }
}
