// expect: not supported by pcheck
machine Main {
  start state S {
    entry {
      assert exists (x: int) :: x == 1;
    }
  }
}
