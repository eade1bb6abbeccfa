// expect: unterminated string literal
machine Main {
  start state S {
    entry {
      print "no end;
    }
  }
}
