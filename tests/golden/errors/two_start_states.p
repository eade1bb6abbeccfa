// expect: more than one start state
machine Main {
  start state S { }
  start state T { }
}
