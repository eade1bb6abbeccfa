// expect: cannot assign 'int' to a variable of type 'float' (use 'to float')
machine Main {
  start state S {
    entry {
      var f: float;
      f = 1;
    }
  }
}
