// expect: must be declared at the start of the function body
machine Main {
  start state S {
    entry {
      if (true) {
        var inner: int;
      }
    }
  }
}
