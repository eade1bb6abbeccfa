// pcheck-args: --search random --seed 1 --schedules 20
// An enum, its default and comparisons.
enum Phase { INIT, RUNNING, DONE }
machine Main {
  var p: Phase;
  start state S {
    entry {
      assert p == INIT;
      p = RUNNING;
      assert p != DONE && p == RUNNING;
      assert (DONE to int) == 2;
    }
  }
}
