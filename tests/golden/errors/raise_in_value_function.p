// expect: 'raise' is only allowed in functions that return no value
event e;
machine Main {
  start state S {
    entry { var x: int; x = F(); }
    on e do { }
  }
  fun F() : int {
    raise e;
    return 1;
  }
}
