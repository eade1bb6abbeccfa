// expect: 'goto' is only allowed in functions that return no value
machine Main {
  start state S {
    entry { var x: int; x = F(); }
  }
  state T { }
  fun F() : int {
    goto T;
    return 1;
  }
}
