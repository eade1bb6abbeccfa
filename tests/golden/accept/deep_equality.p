// pcheck-args: --search random --seed 1 --schedules 20
// == and != compare values structurally: tuples, named tuples,
// sequences, sets (order-free) and maps.
machine Main {
  start state S {
    entry {
      var s1: seq[int]; var s2: seq[int];
      var t1: set[string]; var t2: set[string];
      var m1: map[int, (a: int, b: bool)]; var m2: map[int, (a: int, b: bool)];
      s1 += (0, 1); s1 += (1, 2);
      s2 += (0, 2); s2 += (0, 1);
      assert s1 == s2;
      s2 -= 1;
      assert s1 != s2;
      t1 += ("x"); t1 += ("y");
      t2 += ("y"); t2 += ("x");
      assert t1 == t2;
      m1[1] = (a = 1, b = true); m1[2] = (a = 2, b = false);
      m2[2] = (a = 2, b = false); m2[1] = (a = 1, b = true);
      assert m1 == m2;
      m2[2] = (a = 2, b = true);
      assert m1 != m2;
      assert (1, "a") == (1, "a") && (1, "a") != (2, "a");
      assert (a = 1, b = true) == (a = 1, b = true);
    }
  }
}
