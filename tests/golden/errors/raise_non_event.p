// expect: raise needs an event, not 'int'
machine Main {
  start state S {
    entry {
      raise 3;
    }
  }
}
