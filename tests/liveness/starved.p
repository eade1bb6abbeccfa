// Unfair only: Main pings itself forever with the spec hot; Helper holds
// eGo in its inbox the whole time (enabled in every state of the cycle)
// and would announce eDone as soon as it ran.  Weak fairness makes Helper
// run, so no fair execution stays hot: no bug by default, a bug with
// --unfair.
event ePing; event eStart; event eDone; event eGo;
spec Finishes observes eStart, eDone {
  start cold state Idle { on eStart goto Busy; }
  hot state Busy { on eDone goto Idle; }
}
machine Helper {
  start state S { on eGo do { announce eDone; } }
}
machine Main {
  start state S {
    entry { var h: Helper; announce eStart; h = new Helper(); send h, eGo; send this, ePing; }
    on ePing do { send this, ePing; }
  }
}
