// expect: undeclared variable 'item'
machine Main {
  start state S {
    entry {
      var s: seq[int];
      foreach (item in s) { }
    }
  }
}
