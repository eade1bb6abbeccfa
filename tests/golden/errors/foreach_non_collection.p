// expect: foreach needs a seq, set or map
machine Main {
  start state S {
    entry {
      var x: int;
      foreach (x in 5) { }
    }
  }
}
