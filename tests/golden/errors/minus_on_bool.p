// expect: invalid operand to unary '-' ('bool')
machine Main {
  start state S {
    entry {
      var x: int;
      x = -true;
    }
  }
}
