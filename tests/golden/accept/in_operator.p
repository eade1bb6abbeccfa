// pcheck-args: --search random --seed 1 --schedules 20
// in over seqs, sets and map keys.
machine Main {
  start state S {
    entry {
      var s: seq[int]; var st: set[int]; var m: map[int, bool];
      s += (0, 1); st += (2); m[3] = true;
      assert 1 in s && 2 in st && 3 in m && !(4 in m);
    }
  }
}
