// P: a machine-name (interface) type does not accept null; declare the
// variable as 'machine' to hold null.
machine Worker { start state S { } }
machine Main {
  var w: Worker;
  start state S { entry { w = null; } }
}
