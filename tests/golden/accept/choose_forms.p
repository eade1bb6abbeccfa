// pcheck-args: --search random --seed 1 --schedules 20
// choose() and choose(n) and choose over collections, $ and $$.
machine Main {
  start state S {
    entry {
      var b: bool; var i: int; var s: seq[int]; var st: set[int]; var m: map[int, int];
      s += (0, 10); s += (1, 20); st += (5); m[7] = 0;
      b = choose();
      i = choose(3);
      assert i >= 0 && i < 3;
      i = choose(s);
      assert i == 10 || i == 20;
      assert choose(st) == 5 && choose(m) == 7;
      b = $;
      b = $$;
    }
  }
}
