// pcheck-args: --search random --seed 1 --schedules 20
// Entry and exit given as named functions.
event eGo;
machine Main {
  var log: seq[string];
  start state A {
    entry OnEnter;
    exit OnExit;
    on eGo goto B;
  }
  state B { entry { assert sizeof(log) == 2 && log[1] == "exit"; } }
  fun OnEnter() { log += (sizeof(log), "enter"); send this, eGo; }
  fun OnExit() { log += (sizeof(log), "exit"); }
}
