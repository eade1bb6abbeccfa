// The execution ends with the spec hot: a liveness bug of an end state
// ("hot spec at quiescence"), which every search reports, --no-liveness
// too (it checks end states, as safety does).
event eStart; event eDone;
spec Finishes observes eStart, eDone {
  start cold state Idle { on eStart goto Busy; }
  hot state Busy { on eDone goto Idle; }
}
machine Main {
  start state S { entry { announce eStart; } }
}
