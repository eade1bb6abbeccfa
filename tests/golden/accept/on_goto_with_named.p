// pcheck-args: --search random --seed 1 --schedules 20
// on e goto S with a named function.
event eGo : int;
machine Main {
  var seen: int;
  start state A {
    entry { send this, eGo, 11; }
    on eGo goto B with Record;
  }
  state B { entry (x: int) { assert x == 11 && seen == 11; } }
  fun Record(x: int) { seen = x; }
}
