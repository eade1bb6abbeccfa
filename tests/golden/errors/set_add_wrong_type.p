// expect: cannot add a 'string' to a 'set[int]'
machine Main {
  start state S {
    entry {
      var st: set[int];
      st += ("x");
    }
  }
}
