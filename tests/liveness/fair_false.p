// Unfair only: every round Main flips the fair coin $$; true announces
// eDone and stops.  The only hot cycle takes false forever at the same
// state, which strong fairness for $$ excludes: no bug by default, a bug
// with --unfair.  (unfair_false.p is this model with $ instead.)
event ePing; event eStart; event eDone;
spec Finishes observes eStart, eDone {
  start cold state Idle { on eStart goto Busy; }
  hot state Busy { on eDone goto Idle; }
}
machine Main {
  start state S {
    entry { announce eStart; send this, ePing; }
    on ePing do { if ($$) { announce eDone; } else { send this, ePing; } }
  }
}
