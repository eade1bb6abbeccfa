// expect: argument 2 of
fun Add(a: int, b: int) : int { return a + b; }
machine Main {
  start state S {
    entry {
      var r: int;
      r = Add(1, true);
    }
  }
}
