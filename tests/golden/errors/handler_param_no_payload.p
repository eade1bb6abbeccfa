// expect: event 'eBare' carries no payload, but its handler takes a parameter
event eBare;
machine Main {
  start state S {
    on eBare do (x: int) { }
  }
}
