// fair_false.p with the choice $ instead of $$: every round Main draws $;
// true announces eDone and stops.  The only hot cycle takes false forever
// at the same state.  Since issue 35 every data choice ($, $$, choose) is
// strongly fair, as P's random testing makes them (it picks values at
// random: avoiding one forever has probability zero), so this is no bug,
// as fair_false.p; with --unfair, a bug.  (Before, $ owed nothing and the
// cycle was reported.)
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
