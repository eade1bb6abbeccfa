// expect: 'Watch' is a spec, not a type
event e;
spec Watch observes e { start state S { on e do { } } }
machine Main {
  var w: Watch;
  start state S { }
}
