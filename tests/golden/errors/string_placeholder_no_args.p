// expect: a string literal with placeholder {0} needs format(...) with an argument
machine Main {
  start state S {
    entry {
      print "value {0}";
    }
  }
}
