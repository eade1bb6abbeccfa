// expect: a while condition must be 'bool', not 'int'
machine Main {
  start state S {
    entry {
      var i: int;
      while (i) { i = i - 1; }
    }
  }
}
