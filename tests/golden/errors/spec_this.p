// expect: a spec cannot use 'this'
event e;
spec Watch observes e {
  var me: machine;
  start state S {
    on e do { me = this; }
  }
}
machine Main { start state S { } }
