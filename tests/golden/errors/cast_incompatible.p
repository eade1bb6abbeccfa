// expect: cannot cast a value of type
machine Main {
  start state S {
    entry {
      var s: string;
      s = 1 as string;
    }
  }
}
