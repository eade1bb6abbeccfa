// pcheck-args: --search random --seed 1 --schedules 20
// A named entry function that takes the payload of new and of goto, and a
// named exit function.
machine Worker {
  var id: int;
  var exits: int;
  start state Init {
    entry Setup;
    exit Leave;
  }
  state Next {
    entry Again;
  }
  fun Setup(x: int) { id = x; goto Next, x * 2; }
  fun Leave() { exits = exits + 1; }
  fun Again(y: int) { assert id == 5 && y == 10 && exits == 1; }
}
machine Main { start state S { entry { new Worker(5); } } }
