// expect: event 'e' handled twice in state 'S'
event e;
machine Main {
  start state S {
    on e do { }
    on e do { }
  }
}
