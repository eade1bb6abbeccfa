// A cycle whose every state is hot, yet no liveness bug: each step of Main
// announces eDone then eStart, so the spec enters its cold state Idle and
// leaves it again within the step.  P resets the temperature on entering
// a cold state, whatever comes after in the same step, so the temperature
// never grows: a step that passes through a cold state breaks a hot cycle
// (with fairness and without).
event eStart; event eDone; event eStep;
spec Finishes observes eStart, eDone {
  start cold state Idle { on eStart goto Busy; }
  hot state Busy { on eDone goto Idle; }
}
machine Main {
  start state Loop {
    entry { announce eStart; send this, eStep; }
    on eStep do { announce eDone; announce eStart; send this, eStep; }
  }
}
