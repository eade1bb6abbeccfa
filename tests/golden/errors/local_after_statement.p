// expect: declared after a statement
machine Main {
  start state S {
    entry {
      var a: int;
      a = 1;
      var b: int;
    }
  }
}
