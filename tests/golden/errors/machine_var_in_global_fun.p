// expect: undeclared variable 'count' (a machine variable seen from a global function)
fun Bump() { count = 1; }
machine Main {
  var count: int;
  start state S { }
}
