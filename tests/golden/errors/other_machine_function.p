// expect: undeclared function 'Helper' (it belongs to another machine)
machine Worker {
  start state S { }
  fun Helper() { }
}
machine Main {
  start state S {
    entry { Helper(); }
  }
}
