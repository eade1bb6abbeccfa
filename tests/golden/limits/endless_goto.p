// pcheck-args: -S random --seed 1 -q --max-step-instructions 50000
// Two states whose entries go to each other: one step that never ends
// without a loop in any handler.
event eGo;

machine Main {
  start state A {
    entry { send this, eGo; }
    on eGo goto B;
  }
  state B {
    entry { goto C; }
  }
  state C {
    entry { goto B; }
  }
}
