// expect: no field 'c'
machine Main {
  start state S {
    entry {
      var t: (a: int, b: int);
      t.c = 1;
    }
  }
}
