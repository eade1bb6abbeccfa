// expect: an if condition must be
machine Main {
  start state S {
    entry {
      if (1) { }
    }
  }
}
