// expect: redeclaration of state 'S'
machine Main {
  start state S { }
  state S { }
}
