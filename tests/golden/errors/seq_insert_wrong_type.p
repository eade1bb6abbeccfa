// expect: cannot insert a 'string' into a 'seq[int]'
machine Main {
  start state S {
    entry {
      var s: seq[int];
      s += (0, "x");
    }
  }
}
