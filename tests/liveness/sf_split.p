// Strong fairness splits an SCC: on eTick Main flips $$ (true announces
// eDone: the spec leaves its hot state and nothing more happens); on
// eSpin it makes the choice $ between spinning again and going back to
// eTick.  All hot states form one SCC; the $$ state has an outcome
// outside it and goes, which leaves the spin loop as an SCC of its own:
// Main spins forever, choosing true at $ every time.  That is fair ($
// owes nothing).  Reported, with the cycle in the spin loop.
// (sf_split_fair.p has $$ for the spin choice too: no fair hot cycle.)
event eTick; event eSpin; event eStart; event eDone;
spec Finishes observes eStart, eDone {
  start cold state Idle { on eStart goto Busy; }
  hot state Busy { on eDone goto Idle; }
}
machine Main {
  start state S {
    entry { announce eStart; send this, eTick; }
    on eTick do { if ($$) { announce eDone; } else { send this, eSpin; } }
    on eSpin do { if ($) { send this, eSpin; } else { send this, eTick; } }
  }
}
