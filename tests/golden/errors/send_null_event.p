// expect: cannot send the null event
machine Main {
  start state S {
    entry {
      send this, null;
    }
  }
}
