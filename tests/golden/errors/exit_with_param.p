// expect: syntax error: an inline exit function takes no parameter
machine Main {
  start state S {
    exit (x: int) { }
  }
}
