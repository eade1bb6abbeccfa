// expect: tuple type '(int, bool)' has no element 2
machine Main {
  start state S {
    entry {
      var t: (int, bool);
      var x: int;
      x = t.2;
    }
  }
}
