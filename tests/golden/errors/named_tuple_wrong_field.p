// expect: a value with fields (a, c) cannot be assigned to (a: int, b: int)
machine Main {
  start state S {
    entry {
      var t: (a: int, b: int);
      t = (a = 1, c = 2);
    }
  }
}
