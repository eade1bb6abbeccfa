// expect: a '{' that does not open a placeholder {N} (write '{{')
machine Main {
  start state S {
    entry { print "set {a, b}"; }
  }
}
