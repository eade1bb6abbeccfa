// expect: choose takes at most 10000 choices
machine Main {
  start state S {
    entry {
      var n: int;
      n = choose(10001);
    }
  }
}
