// expect: '+=' needs a seq, set or map, not 'int'
machine Main {
  start state S {
    entry {
      var x: int;
      x += (1);
    }
  }
}
