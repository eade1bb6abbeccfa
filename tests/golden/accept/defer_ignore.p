// pcheck-args: --search random --seed 1 --schedules 20
// defer keeps events; ignore drops them.
event eLater; event eNoise; event eGo;
machine Main {
  start state A {
    entry { send this, eLater; send this, eNoise; send this, eGo; }
    defer eLater;
    ignore eNoise;
    on eGo goto B;
  }
  state B { on eLater do { print "eLater after the state change"; } }
}
