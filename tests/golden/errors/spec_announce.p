// expect: a spec cannot use 'announce'
event e;
spec Watch observes e {
  start state S {
    on e do { announce e; }
  }
}
machine Main { start state S { } }
