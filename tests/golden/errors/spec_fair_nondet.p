// expect: a spec cannot use '$$'
event e;
spec Watch observes e {
  var b: bool;
  start state S {
    on e do { b = $$; }
  }
}
machine Main { start state S { } }
