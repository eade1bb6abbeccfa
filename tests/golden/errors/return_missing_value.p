// expect: 'return' without a value in a function returning 'int'
fun F(x: int) : int {
  if (x > 0) { return; }
  return x;
}
machine Main { start state S { } }
