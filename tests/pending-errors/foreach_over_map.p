// expect: foreach needs a seq or a set, not 'map[int, bool]' (iterate over keys(m))
machine Main {
  start state S {
    entry {
      var m: map[int, bool];
      var k: int;
      foreach (k in m) { }
    }
  }
}
