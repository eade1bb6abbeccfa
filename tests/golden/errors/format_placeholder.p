// expect: placeholder {2} has no argument
machine Main {
  start state S {
    entry {
      print format("{0} {1} {2}", 1, 2);
    }
  }
}
