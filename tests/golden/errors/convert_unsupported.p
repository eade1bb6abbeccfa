// expect: cannot convert a value of type
machine Main {
  start state S {
    entry {
      var b: bool;
      b = 1 to bool;
    }
  }
}
