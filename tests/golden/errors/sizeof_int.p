// expect: sizeof needs a seq, set or map, not 'int'
machine Main {
  start state S {
    entry {
      var n: int;
      n = sizeof(3);
    }
  }
}
