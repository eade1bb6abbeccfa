// expect: takes no payload
event eBare;
machine Main {
  start state S {
    entry {
      send this, eBare, 3;
    }
  }
}
