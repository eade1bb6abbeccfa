// expect: choose needs an int or a seq, set or map, not 'bool'
machine Main {
  start state S {
    entry {
      var b: bool;
      b = choose(true);
    }
  }
}
