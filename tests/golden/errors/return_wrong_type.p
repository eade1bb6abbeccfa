// expect: return value of type 'string' does not match the return type 'int'
fun F() : int {
  return "one";
}
machine Main { start state S { } }
