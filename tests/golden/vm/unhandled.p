// pcheck-args: --search random --seed 1 --schedules 1 -v
// An event with no handler in the current state is a bug.
event eSurprise;
machine Main {
  start state Init {
    entry { send this, eSurprise; }
  }
}
