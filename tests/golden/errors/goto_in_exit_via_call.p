// expect: exit function calls 'Leave', which changes state (goto)
machine Main {
  start state S {
    exit { Leave(); }
  }
  state T { }
  fun Leave() { goto T; }
}
