// pcheck-args: --search random --seed 1 --schedules 20
// A call whose result is dropped, and a call statement.
fun Twice(x: int) : int { return 2 * x; }
machine Main {
  var calls: int;
  start state S { entry { Twice(3); Touch(); assert calls == 1; } }
  fun Touch() { calls = calls + 1; }
}
