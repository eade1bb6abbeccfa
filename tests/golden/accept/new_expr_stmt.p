// pcheck-args: --search random --seed 1 --schedules 20
// new as an expression and as a statement.
machine Worker { start state S { } }
machine Main {
  var w: Worker;
  start state S { entry { w = new Worker(); new Worker(); assert (w as machine) != null; } }
}
