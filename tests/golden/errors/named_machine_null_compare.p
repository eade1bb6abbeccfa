// P: a machine-name (interface) type cannot be compared with null.
machine Worker { start state S { } }
machine Main {
  var w: Worker;
  start state S { entry { assert w == null; } }
}
