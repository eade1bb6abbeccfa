// expect: invalid operands to '+'
machine Main {
  start state S {
    entry {
      var x: int;
      x = 1 + true;
    }
  }
}
