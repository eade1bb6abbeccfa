// pcheck-args: --search random --seed 1 --schedules 20
// One handler for several events.
event e1 : int; event e2 : int;
machine Main {
  var total: int;
  start state S {
    entry { send this, e1, 1; send this, e2, 2; }
    on e1, e2 do (x: int) { total = total + x; }
  }
}
