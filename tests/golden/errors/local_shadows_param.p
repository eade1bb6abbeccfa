// expect: redeclaration of variable 'x' (a local with a parameter's name)
fun F(x: int) : int {
  var x: int;
  return 1;
}
machine Main { start state S { } }
