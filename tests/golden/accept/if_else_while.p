// pcheck-args: --search random --seed 1 --schedules 20
// if/else chains, while, break and continue.
machine Main {
  start state S {
    entry {
      var i: int;
      var odd: int;
      while (true) {
        i = i + 1;
        if (i > 10) { break; }
        else if (i % 2 == 0) { continue; }
        else { odd = odd + 1; }
      }
      assert odd == 5;
    }
  }
}
