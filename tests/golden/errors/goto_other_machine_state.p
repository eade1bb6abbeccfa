// expect: undeclared state 'Busy' (it belongs to another machine)
machine Worker {
  start state Idle { }
  state Busy { }
}
machine Main {
  start state S {
    entry { goto Busy; }
  }
}
