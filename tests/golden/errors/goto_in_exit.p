// expect: 'goto' is not allowed in an exit function
machine Main {
  start state S {
    exit { goto T; }
  }
  state T { }
}
