// expect: undeclared function 'Helper'
machine Main {
  start state S {
    entry {
      Helper();
    }
  }
}
