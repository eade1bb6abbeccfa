// pcheck-args: --search random --seed 1 --schedules 20
// An exit function may send (a scheduling point inside a transition).
event eGo; event eNote;
machine Main {
  var notes: int;
  start state A {
    entry { send this, eGo; }
    exit { send this, eNote; }
    on eGo goto B;
  }
  state B { on eNote do { notes = notes + 1; assert notes == 1; } }
}
