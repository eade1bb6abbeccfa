// pcheck-args: --search random --seed 1 --schedules 1 -v
// Liveness: the system quiesces while a spec is in a hot state.
event eReq; event eResp;
spec Progress observes eReq, eResp {
  start cold state Idle { on eReq goto Waiting; }
  hot state Waiting { on eResp goto Idle; }
}
machine Main {
  start state Init {
    entry { announce eReq; }
  }
}
