// expect: foreach variable of type 'bool' cannot hold elements of 'seq[int]'
machine Main {
  start state S {
    entry {
      var s: seq[int];
      var b: bool;
      foreach (b in s) { }
    }
  }
}
