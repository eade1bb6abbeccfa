// expect: takes 2 arguments
fun Add(a: int, b: int) : int { return a + b; }
machine Main {
  start state S {
    entry {
      var r: int;
      r = Add(1);
    }
  }
}
