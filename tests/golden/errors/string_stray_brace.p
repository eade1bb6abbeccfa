// expect: a lone '}' in a string literal (write '}}')
machine Main {
  start state S {
    entry {
      print "closing } brace";
    }
  }
}
