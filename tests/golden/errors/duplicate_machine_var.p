// expect: redeclaration of variable 'x'
machine Main {
  var x: int;
  var x: bool;
  start state S { }
}
