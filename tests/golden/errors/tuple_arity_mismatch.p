// expect: cannot assign a 3-tuple to a variable of type '(int, int)'
machine Main {
  start state S {
    entry {
      var t: (int, int);
      t = (1, 2, 3);
    }
  }
}
