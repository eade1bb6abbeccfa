// expect: 'in' tests a 'string' against a 'seq[int]'
machine Main {
  start state S {
    entry {
      var s: seq[int];
      var b: bool;
      b = "a" in s;
    }
  }
}
