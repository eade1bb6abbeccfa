// expect: a spec cannot defer events
event e; event eLater;
spec Watch observes e, eLater {
  start state S {
    on e do { }
    defer eLater;
  }
}
machine Main { start state S { } }
