// expect: a spec cannot use 'receive'
event e;
spec Watch observes e {
  start state S {
    on e do { receive { case e: { } } }
  }
}
machine Main { start state S { } }
