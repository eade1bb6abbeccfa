// The spin loop decided by a data choice: on eTick Main flips $$ (true
// announces eDone); false spins, and each spin draws $$ between spinning
// again and going back to eTick.  Spinning forever takes false at the spin
// choice forever, which strong fairness excludes; taking it infinitely
// often brings Main back to eTick infinitely often, where strong fairness
// makes it take true (announce eDone) eventually.  No fair hot cycle: no
// bug by default; with --unfair, a bug.  ($ for the spin choice would be
// the same: every data choice is strongly fair.  sf_split.p decides the
// spin loop by a race of two machines instead.)
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
