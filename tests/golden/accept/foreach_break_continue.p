// pcheck-args: --search random --seed 1 --schedules 20
// break and continue inside foreach; foreach over keys(m) and values(m);
// nested foreach.
machine Main {
  start state S {
    entry {
      var s: seq[int]; var m: map[string, int]; var x: int; var k: string; var y: int;
      var sum: int; var pairs: int;
      s += (0, 1); s += (1, 2); s += (2, 3); s += (3, 4);
      foreach (x in s) { if (x == 2) { continue; } if (x == 4) { break; } sum = sum + x; }
      assert sum == 4;
      m["a"] = 10; m["b"] = 20;
      foreach (k in keys(m)) { sum = sum + m[k]; }
      foreach (x in values(m)) { sum = sum + x; }
      assert sum == 64;
      foreach (x in s) { foreach (y in s) { if (y > x) { break; } pairs = pairs + 1; } }
      assert pairs == 10;
    }
  }
}
