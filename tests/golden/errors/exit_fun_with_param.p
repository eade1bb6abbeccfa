// expect: an exit function takes no parameter; 'Leave' takes 1
machine Main {
  start state S {
    exit Leave;
  }
  fun Leave(x: int) { }
}
