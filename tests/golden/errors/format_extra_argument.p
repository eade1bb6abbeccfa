// expect: format has 1 placeholder but 2 arguments
machine Main {
  start state S {
    entry {
      print format("only {0}", 1, 2);
    }
  }
}
