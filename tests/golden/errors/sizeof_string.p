// P: sizeof takes a seq, a set or a map, not a string.
machine Main {
  start state S {
    entry {
      var n: int;
      n = sizeof("abc");
    }
  }
}
