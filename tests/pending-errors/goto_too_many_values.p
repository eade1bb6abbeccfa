// expect: goto passes 2 values, but the entry of state 'T' takes one parameter
machine Main {
  start state S {
    entry { goto T, 1, 2; }
  }
  state T { entry (p: (int, int)) { } }
}
