// sf_split.p with the fair $$ for the spin choice too.  Spinning forever
// takes false at the spin choice forever, which strong fairness excludes;
// taking it infinitely often brings Main back to eTick infinitely often,
// where strong fairness makes it take true (announce eDone) eventually.
// No fair hot cycle: no bug by default; with --unfair, a bug.
event eTick; event eSpin; event eStart; event eDone;
spec Finishes observes eStart, eDone {
  start cold state Idle { on eStart goto Busy; }
  hot state Busy { on eDone goto Idle; }
}
machine Main {
  start state S {
    entry { announce eStart; send this, eTick; }
    on eTick do { if ($$) { announce eDone; } else { send this, eSpin; } }
    on eSpin do { if ($$) { send this, eSpin; } else { send this, eTick; } }
  }
}
