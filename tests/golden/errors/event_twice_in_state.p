// expect: given two meanings in state
event e;
machine Main {
  start state S {
    on e do { }
    ignore e;
  }
}
