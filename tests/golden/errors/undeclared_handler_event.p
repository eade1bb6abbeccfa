// expect: undeclared event 'eMissing'
machine Main {
  start state S {
    on eMissing do { }
  }
}
