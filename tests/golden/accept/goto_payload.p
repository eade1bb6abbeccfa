// pcheck-args: --search random --seed 1 --schedules 20
// goto with a payload to a state whose entry takes it.
machine Main {
  start state A { entry { goto B, (x = 1, y = 2); } }
  state B { entry (p: (x: int, y: int)) { assert p.x + p.y == 3; } }
}
