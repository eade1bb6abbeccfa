// expect: cannot index a value
machine Main {
  start state S {
    entry {
      var x: int;
      x = x[0];
    }
  }
}
