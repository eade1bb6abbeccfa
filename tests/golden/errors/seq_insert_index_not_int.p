// expect: the index of a seq insert must be 'int', not 'string'
machine Main {
  start state S {
    entry {
      var s: seq[int];
      s += ("0", 1);
    }
  }
}
