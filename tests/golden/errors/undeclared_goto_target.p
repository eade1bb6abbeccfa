// expect: undeclared state 'Nowhere'
event e;
machine Main {
  start state S {
    on e goto Nowhere;
  }
}
