// pcheck-args: --search random --seed 1 --schedules 20
// seq: insert, index, update, remove, sizeof, in.
machine Main {
  start state S {
    entry {
      var s: seq[int];
      s += (0, 1);
      s += (1, 3);
      s += (1, 2);
      assert s[0] == 1 && s[1] == 2 && s[2] == 3;
      s[2] = 4;
      s -= 0;
      assert sizeof(s) == 2 && s[0] == 2 && 4 in s && !(1 in s);
    }
  }
}
