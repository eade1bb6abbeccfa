// pcheck-args: --search random --seed 1 --schedules 20
// return; ends an entry, exit or event handler early.
event eGo; event eVal : int;
machine Main {
  var n: int;
  start state A {
    entry { send this, eVal, 1; send this, eVal, -1; send this, eGo; if (n == 0) { return; } assert false; }
    on eVal do (v: int) { if (v < 0) { return; } n = n + v; }
    on eGo goto B;
    exit { if (n == 1) { return; } assert false, "exit ran past return"; }
  }
  state B {
    entry { send this, eVal, 2; receive { case eVal: (v: int) { if (v == 2) { return; } } } assert n == 1; }
  }
}
