// expect: a spec cannot make a nondeterministic choice with choose
event e;
spec Watch observes e {
  var n: int;
  start state S {
    on e do { n = choose(3); }
  }
}
machine Main { start state S { } }
