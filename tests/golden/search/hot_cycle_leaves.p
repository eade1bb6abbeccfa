// pcheck-args: --search dfs --mem 64M
// Not a liveness bug: the execution cycles forever and the spec is hot in
// half of its states, but it leaves its hot state on every round.
event ePing; event ePong; event eStart; event eDone;
spec Finishes observes eStart, eDone {
  start cold state Idle { on eStart goto Busy; }
  hot state Busy { on eDone goto Idle; }
}
machine Main {
  start state S {
    entry { send this, ePing; }
    on ePing do { announce eStart; send this, ePong; }
    on ePong do { announce eDone; send this, ePing; }
  }
}
