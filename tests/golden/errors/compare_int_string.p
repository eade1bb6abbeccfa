// expect: types 'int' and 'string' cannot be compared with '=='
machine Main {
  start state S {
    entry {
      var b: bool;
      b = 1 == "1";
    }
  }
}
