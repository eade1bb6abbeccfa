// expect: not supported by pcheck
machine Main {
  start state S {
    entry {
      assert forall (x: int) :: x == x;
    }
  }
}
