// expect: syntax error
machine Main {
  start state S {
    entry {
      var x: int;
      x = 1 +;
    }
  }
}
