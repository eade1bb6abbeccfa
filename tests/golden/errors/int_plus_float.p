// expect: invalid operands to '+' ('int' and 'float'): no implicit conversion
machine Main {
  start state S {
    entry {
      var f: float;
      f = 1 + 2.5;
    }
  }
}
