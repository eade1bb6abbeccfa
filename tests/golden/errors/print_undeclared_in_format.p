// expect: undeclared variable 'missing' in a format argument
machine Main {
  start state S {
    entry {
      print format("{0}", missing);
    }
  }
}
