// pcheck-args: --search random --seed 1 --schedules 1 -v
// Deadlock: nothing can run while a machine waits in receive.
event eNever;
machine Main {
  start state Init {
    entry { receive { case eNever: { } } }
  }
}
