// expect: undeclared machine 'Worker'
machine Main {
  start state S {
    entry {
      new Worker();
    }
  }
}
