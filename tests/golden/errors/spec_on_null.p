// expect: a spec cannot handle the null event
event e;
spec Watch observes e {
  start state S {
    on e do { }
    on null goto T;
  }
  state T { ignore e; }
}
machine Main { start state S { } }
