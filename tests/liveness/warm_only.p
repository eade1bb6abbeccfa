// A spec hot once, then warm forever: Main announces eBusy once, then eWait
// forever.  The cycle passes no hot state, so P's temperature stops
// rising there: no liveness bug, with fairness or without (a cycle must
// pass a hot state and no cold one, doc/liveness.md, section 2).
event eBusy; event eWait; event eStep;
spec WatchDog observes eBusy, eWait {
  start cold state Idle { on eBusy goto Hot; }
  hot state Hot { on eWait goto Warm; }
  state Warm { on eWait goto Warm; }
}
machine Main {
  start state Loop {
    entry { announce eBusy; send this, eStep; }
    on eStep do { announce eWait; send this, eStep; }
  }
}
