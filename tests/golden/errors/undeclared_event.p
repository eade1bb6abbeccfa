// expect: undeclared event 'ePong'
machine Main {
  start state S {
    entry {
      send this, ePong;
    }
  }
}
