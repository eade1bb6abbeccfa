// expect: syntax error: a float literal needs digits after the point
machine Main {
  start state S {
    entry {
      var f: float;
      f = 1.;
    }
  }
}
