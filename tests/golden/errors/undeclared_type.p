// expect: undeclared type 'tMissing'
machine Main {
  var x: tMissing;
  start state S { }
}
