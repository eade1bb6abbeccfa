// Hot for too long: Main pings itself 3000 times (two steps a round) with
// the spec hot, then announces eDone.  Every execution is hot for about
// 6000 consecutive steps: past the default threshold (--max-steps / 2 =
// 5000), a liveness bug for the sampling searches; under a threshold of
// 100000, none.  (No cycle: exhaustive searches find no bug.)
event ePing; event eStart; event eDone;
spec Finishes observes eStart, eDone {
  start cold state Idle { on eStart goto Busy; }
  hot state Busy { on eDone goto Idle; }
}
machine Main {
  var n: int;
  start state S {
    entry { announce eStart; send this, ePing; }
    on ePing do { n = n + 1; if (n < 3000) { send this, ePing; } else { announce eDone; } }
  }
}
