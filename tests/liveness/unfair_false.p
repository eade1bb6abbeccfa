// A real hot cycle: every round Main makes the choice $ (not fair); true
// announces eDone and stops.  The hot cycle that takes false forever is
// fair, since $ owes nothing: reported by default (fair_false.p is this
// model with the fair $$).
event ePing; event eStart; event eDone;
spec Finishes observes eStart, eDone {
  start cold state Idle { on eStart goto Busy; }
  hot state Busy { on eDone goto Idle; }
}
machine Main {
  start state S {
    entry { announce eStart; send this, ePing; }
    on ePing do { if ($) { announce eDone; } else { send this, ePing; } }
  }
}
