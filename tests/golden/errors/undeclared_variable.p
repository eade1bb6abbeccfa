// expect: undeclared variable 'count'
machine Main {
  start state S {
    entry {
      count = 1;
    }
  }
}
