// A fair cycle must take both outcomes of each $$ it passes: Main keeps
// flipping $$ into b, both outcomes staying hot (nothing announces
// eDone).  The hot SCC holds $$ states whose outcomes are both in it, so
// it is accepted, and the lasso takes true and false at every $$ state on
// its cycle (--replay checks that).
event ePing; event eStart; event eDone;
spec Finishes observes eStart, eDone {
  start cold state Idle { on eStart goto Busy; }
  hot state Busy { on eDone goto Idle; }
}
machine Main {
  var b: bool;
  start state S {
    entry { announce eStart; send this, ePing; }
    on ePing do { if ($$) { b = !b; } send this, ePing; }
  }
}
