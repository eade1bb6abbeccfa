// A spec that alternates between a hot state and a warm one (neither hot
// nor cold), after P's regression test Liveness_1_WarmState: Main loops
// forever announcing eBusy then eWait, so WatchDog goes Hot, Warm, Hot, ...
// and never enters its cold state.  P's temperature rises in every hot
// state and is reset only on entering a cold one, so this execution is
// hot "forever" for P: a liveness bug, with fairness and without, though
// only every second state of the cycle is hot.
event eBusy; event eWait; event eStep;
spec WatchDog observes eBusy, eWait {
  start cold state Idle { on eBusy goto Hot; }
  hot state Hot { on eWait goto Warm; }
  state Warm { on eBusy goto Hot; }
}
machine Main {
  start state Init { entry { send this, eStep; goto Loop; } }
  state Loop {
    on eStep do { announce eBusy; send this, eStep; goto Second; }
  }
  state Second {
    on eStep do { announce eWait; send this, eStep; goto Loop; }
  }
}
