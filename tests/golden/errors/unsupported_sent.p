// expect: not supported by pcheck
machine Main {
  start state S {
    entry {
      assert sent e;
    }
  }
}
