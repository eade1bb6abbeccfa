// Hot for too long: Main pings itself 30000 times (two steps a round) with
// the spec hot, then announces eDone.  Every execution is hot for about
// 60000 consecutive steps: past the default threshold of random and irs
// (P's: half of 100,000 steps, 50000), a liveness bug for them; under a
// threshold of 100000, none; pct and ss, unfair like P's pct, do not check
// temperature.  (No cycle: exhaustive searches find no bug.)
event ePing; event eStart; event eDone;
spec Finishes observes eStart, eDone {
  start cold state Idle { on eStart goto Busy; }
  hot state Busy { on eDone goto Idle; }
}
machine Main {
  var n: int;
  start state S {
    entry { announce eStart; send this, ePing; }
    on ePing do { n = n + 1; if (n < 30000) { send this, ePing; } else { announce eDone; } }
  }
}
