// expect: an assert message must be 'string', not 'int'
machine Main {
  start state S {
    entry {
      assert true, 42;
    }
  }
}
