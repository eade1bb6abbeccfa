// expect: undeclared function 'Setup'
machine Main {
  start state S {
    entry Setup;
  }
}
