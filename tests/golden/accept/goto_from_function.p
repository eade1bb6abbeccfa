// pcheck-args: --search random --seed 1 --schedules 20
// goto and raise inside functions called from handlers end the handler.
event eGo : int;
event eSelf;
machine Main {
  var after: bool;
  start state A {
    entry { Jump(3); after = true; }
    exit { assert !after, "code after goto ran"; }
  }
  state B {
    entry (n: int) { assert n == 3; Raise(); after = true; }
    on eSelf goto C;
  }
  state C { entry { assert !after; } }
  fun Jump(n: int) { if (n > 0) { goto B, n; } assert false; }
  fun Raise() { raise eSelf; }
}
