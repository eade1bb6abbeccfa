// expect: a spec cannot use 'send'
event e;
spec Watch observes e {
  start state S {
    on e do { send null, e; }
  }
}
machine Main { start state S { } }
