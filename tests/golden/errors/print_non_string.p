// expect: the argument of 'print' must be 'string'
machine Main {
  start state S {
    entry {
      print 42;
    }
  }
}
