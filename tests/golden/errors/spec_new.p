// expect: a spec cannot create machines
event e;
machine Worker { start state S { } }
spec Watch observes e {
  start state S {
    on e do { new Worker(); }
  }
}
machine Main { start state S { } }
