// expect: integer literal out of range
machine Main {
  start state S {
    entry {
      var x: int;
      x = 99999999999999999999;
    }
  }
}
