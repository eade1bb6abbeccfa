// expect: invalid operands to '<' ('bool' and 'bool')
machine Main {
  start state S {
    entry {
      var b: bool;
      b = true < false;
    }
  }
}
