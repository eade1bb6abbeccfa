// pcheck-args: --search random --seed 1 --schedules 20
// A start state entry receives the payload of new.
machine Worker {
  var id: int;
  start state S { entry (x: int) { id = x; assert id == 7; } }
}
machine Main { start state S { entry { new Worker(7); } } }
