// pcheck-args: --search random --seed 1 --schedules 20
// Functions declared inside a machine use its variables.
machine Main {
  var count: int;
  start state S {
    entry { Bump(); Bump(); assert Get() == 2; }
  }
  fun Bump() { count = count + 1; }
  fun Get() : int { return count; }
}
