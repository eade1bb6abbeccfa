// expect: state 'S' has two entry functions
machine Main {
  start state S {
    entry { }
    entry { }
  }
}
