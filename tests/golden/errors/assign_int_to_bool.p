// expect: cannot assign a value of type
machine Main {
  var flag: bool;
  start state S { entry { flag = 1; } }
}
