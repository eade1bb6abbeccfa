// pcheck-args: --search random --seed 1 --schedules 20
// Handlers without a parameter may handle events that carry a payload:
// inline, named and goto targets whose entry takes none. (A receive case
// is different: it must take the payload.)
event eInt : int;
event eStr : string;
event eDone;
machine Main {
  var n: int;
  start state A {
    entry { send this, eInt, 1; send this, eInt, 2; send this, eStr, "x"; }
    on eInt do { n = n + 1; }
    on eStr goto B;
  }
  state B {
    entry { send this, eInt, 3; receive { case eInt: (x: int) { n = n + 1; } } send this, eStr, "y"; }
    on eStr do Count;
  }
  fun Count() { n = n + 1; assert n == 4; }
}
