// expect: invalid operands to '&&' ('int' and 'int')
machine Main {
  start state S {
    entry {
      var b: bool;
      b = 1 && 2;
    }
  }
}
