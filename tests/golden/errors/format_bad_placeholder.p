// expect: format placeholders must contain only digits
machine Main {
  start state S {
    entry {
      print format("value {x}", 1);
    }
  }
}
