// Strong fairness moves the cycle: in state Loop, Main flips $$ each
// round; true leaves Loop for Spin, where Main spins forever, the spec
// still hot.  The Loop cycle (false forever) is unfair, but $$ has an
// outcome that stays hot: the fair hot cycle is Spin's, reached by taking
// true.  Reported, with the cycle in Spin.
event ePing; event eJump; event eSpin; event eStart; event eDone;
spec Finishes observes eStart, eDone {
  start cold state Idle { on eStart goto Busy; }
  hot state Busy { on eDone goto Idle; }
}
machine Main {
  start state Loop {
    entry { announce eStart; send this, ePing; }
    on ePing do { if ($$) { send this, eJump; } else { send this, ePing; } }
    on eJump goto Spin;
  }
  state Spin {
    entry { send this, eSpin; }
    on eSpin do { send this, eSpin; }
  }
}
