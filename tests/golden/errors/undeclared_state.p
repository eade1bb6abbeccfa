// expect: undeclared state 'Nowhere'
machine Main {
  start state S {
    entry {
      goto Nowhere;
    }
  }
}
