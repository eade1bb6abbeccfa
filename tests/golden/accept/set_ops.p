// pcheck-args: --search random --seed 1 --schedules 20
// set: add, remove, membership, duplicates.
machine Main {
  start state S {
    entry {
      var s: set[string];
      s += ("a");
      s += ("b");
      s += ("a");
      assert sizeof(s) == 2 && "a" in s;
      s -= ("a");
      assert !("a" in s) && sizeof(s) == 1;
    }
  }
}
