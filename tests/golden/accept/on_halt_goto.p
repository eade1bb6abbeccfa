// pcheck-args: --search random --seed 1 --schedules 20
// halt handled by a transition instead of halting the machine.
event eAfter;
machine Main {
  var stops: int;
  start state Running {
    entry { send this, halt; send this, eAfter; }
    on halt goto Stopped;
    defer eAfter;
  }
  state Stopped {
    entry { stops = stops + 1; }
    on eAfter do { assert stops == 1, "still running after halt was handled"; }
  }
}
