// pcheck-args: --search random --seed 1 --schedules 20
// foreach over a seq, a set and the keys of a map (P has no foreach over a map itself).
machine Main {
  start state S {
    entry {
      var s: seq[int]; var st: set[int]; var m: map[int, int];
      var x: int; var total: int;
      s += (0, 1); s += (1, 2);
      st += (10); st += (20);
      m[100] = 1; m[200] = 2;
      foreach (x in s) { total = total + x; }
      foreach (x in st) { total = total + x; }
      foreach (x in keys(m)) { total = total + x; }
      assert total == 333;
    }
  }
}
