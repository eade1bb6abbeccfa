// expect: an assert condition must be 'bool', not 'int'
machine Main {
  start state S {
    entry {
      assert 1;
    }
  }
}
