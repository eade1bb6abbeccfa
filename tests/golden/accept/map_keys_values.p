// pcheck-args: --search random --seed 1 --schedules 20
// keys and values line up; sizes agree; keys are in the map; values of
// maps of collections; choose over a map yields a key.
machine Main {
  start state S {
    entry {
      var m: map[int, set[string]]; var ks: seq[int]; var vs: seq[set[string]]; var i: int; var k: int;
      m[3] = default(set[string]);
      m[3] += ("c");
      m[1] = default(set[string]);
      m[2] = m[3];
      m[2] += ("b");
      ks = keys(m); vs = values(m);
      assert sizeof(ks) == 3 && sizeof(vs) == sizeof(m);
      while (i < sizeof(ks)) { assert m[ks[i]] == vs[i]; i = i + 1; }
      k = choose(m);
      assert k in m && k in ks;
      m -= 2;
      assert sizeof(keys(m)) == 2 && !(2 in keys(m)) && "c" in values(m)[1];
    }
  }
}
