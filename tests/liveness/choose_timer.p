// A data choice that must not avoid one of its values forever: the Timer
// ticks, each tick drawing choose(10); 0 fires the timeout, which Main
// answers by announcing eDone (the pattern of P's FailureDetector and
// two-phase-commit timers).  The only hot cycle draws a nonzero value at
// the same state forever.  P's random testing draws values at random, so
// that execution has probability zero: data choices are strongly fair
// (doc/liveness.md), no bug by default; with --unfair, a bug.
event eTick; event eTimeOut; event eStart; event eDone;
spec Finishes observes eStart, eDone {
  start cold state Idle { on eStart goto Busy; }
  hot state Busy { on eDone goto Idle; }
}
machine Timer {
  var client: machine;
  start state S {
    entry (c: machine) { client = c; send this, eTick; }
    on eTick do { if (choose(10) == 0) { send client, eTimeOut; } else { send this, eTick; } }
  }
}
machine Main {
  start state S {
    entry { announce eStart; new Timer(this); }
    on eTimeOut do { announce eDone; }
  }
}
