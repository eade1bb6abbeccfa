// expect: has no start state
machine Main {
  state S { }
}
