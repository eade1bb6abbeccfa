// expect: a 'map[int, int]' is indexed by 'int', not 'string'
machine Main {
  start state S {
    entry {
      var m: map[int, int];
      m["x"] = 1;
    }
  }
}
