// expect: the right operand of 'in' must be a seq, set or map
machine Main {
  start state S {
    entry {
      var b: bool;
      b = 1 in 2;
    }
  }
}
