// expect: not supported by pcheck
event e;
machine Main {
  start state S {
    entry {
      assert e is e;
    }
  }
}
