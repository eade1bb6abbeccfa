// expect: state 'S' has two exit functions
machine Main {
  start state S {
    exit { }
    exit { }
  }
}
