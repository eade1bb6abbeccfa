// pcheck-args: --search random --seed 1 --schedules 20
// if, else, while and foreach whose bodies are single statements; the
// dangling else belongs to the nearest if.
machine Main {
  start state S {
    entry {
      var i: int; var n: int; var x: int; var s: seq[int];
      while (i < 4) i = i + 1;
      if (i == 4) n = 1; else n = 2;
      if (i > 0) if (i > 10) n = 3; else n = n + 10;
      s += (0, 5); s += (1, 6);
      foreach (x in s) n = n + x;
      if (n > 100) assert false; else if (n == 22) print "ok"; else assert false, "n";
      assert i == 4 && n == 22;
    }
  }
}
