// pcheck-args: --search random --seed 1 --schedules 20
// map: put, replace, insert, remove, keys, values, in.
machine Main {
  start state S {
    entry {
      var m: map[int, string];
      var ks: seq[int];
      m[2] = "two";
      m[1] = "one";
      m[2] = "TWO";
      m += (3, "three");
      ks = keys(m);
      assert sizeof(m) == 3 && ks[0] == 1 && values(m)[1] == "TWO";
      m -= 1;
      assert !(1 in m) && 3 in m;
    }
  }
}
