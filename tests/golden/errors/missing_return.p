// expect: can reach its end without returning
fun Sign(x: int) : int {
  if (x > 0) { return 1; }
}
machine Main { start state S { } }
