// expect: sizeof needs a seq, set or map, not 'string'
machine Main {
  start state S {
    entry {
      var n: int;
      n = sizeof("abc");
    }
  }
}
