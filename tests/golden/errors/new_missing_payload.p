// expect: missing payload for the start state of machine 'Worker'
machine Worker {
  start state S { entry (id: int) { } }
}
machine Main {
  start state S {
    entry { new Worker(); }
  }
}
