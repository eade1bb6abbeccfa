// pcheck-args: --search random --seed 1 --schedules 20
// Collections of collections and tuples as keys.
machine Main {
  start state S {
    entry {
      var m: map[(int, int), set[string]];
      m[(1, 2)] = default(set[string]);
      m[(1, 2)] += ("x");
      assert "x" in m[(1, 2)] && !((2, 1) in m);
    }
  }
}
