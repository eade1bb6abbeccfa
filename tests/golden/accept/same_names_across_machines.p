// pcheck-args: --search random --seed 1 --schedules 20
// Variables, states and functions are scoped to their machine: two
// machines (and a spec) may reuse the same names.
event eTick : int;
spec Watch observes eTick {
  var x: int;
  start state S { on eTick do (v: int) { x = F(v); } }
  fun F(v: int) : int { return v; }
}
machine Other {
  var x: string;
  start state S { entry { x = F(); assert x == "other"; } }
  fun F() : string { return "other"; }
}
machine Main {
  var x: int;
  start state S { entry { new Other(); x = F(1); announce eTick, x; goto T; } }
  state T { }
  fun F(y: int) : int { return y + 1; }
}
