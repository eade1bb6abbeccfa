// expect: which is not a named tuple
machine Main {
  start state S {
    entry {
      var x: int;
      x = x.size;
    }
  }
}
