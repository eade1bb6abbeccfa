// expect: cannot create spec 'Watch' with new
event e;
spec Watch observes e { start state S { on e do { } } }
machine Main {
  start state S {
    entry { new Watch(); }
  }
}
