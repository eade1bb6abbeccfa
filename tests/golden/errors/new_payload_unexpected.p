// expect: machine 'Worker' takes no payload
machine Worker {
  start state S { entry { } }
}
machine Main {
  start state S {
    entry { new Worker(1); }
  }
}
