// expect: the target of 'send' must be a machine
event e;
machine Main {
  start state S {
    entry {
      send 3, e;
    }
  }
}
