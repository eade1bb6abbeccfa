/* Liveness: a proposer never waits forever for the answers to its prepare
   requests. Every acceptor answers a prepare with a promise or a refusal,
   so phase 1 of every round ends (with a majority of promises, or with a
   refusal and a retry or giving up). Hot while some proposer is in phase 1. */
spec PrepareAnswered observes ePhaseOneStarted, ePhaseOneEnded {
  var waiting: set[int];
  start cold state NoneWaiting {
    on ePhaseOneStarted goto Waiting with (id: int) { waiting += (id); }
  }
  hot state Waiting {
    on ePhaseOneStarted do (id: int) { waiting += (id); }
    on ePhaseOneEnded do (id: int) {
      waiting -= (id);
      if (sizeof(waiting) == 0) {
        goto NoneWaiting;
      }
    }
  }
}
