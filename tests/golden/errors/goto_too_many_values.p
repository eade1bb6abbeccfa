// expect: goto passes 2 values; the entry takes at most one (P)
machine Main {
  start state S {
    entry { goto T, 1, 2; }
  }
  state T { entry (p: (int, int)) { } }
}
