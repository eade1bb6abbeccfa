// Unfair only, under the reduction: Main and a Worker ping themselves
// forever with the spec hot; Helper holds eGo in its inbox the whole time
// and would announce eDone as soon as it ran.  The reduction postpones
// Helper's step along the cycles of Main and the Worker, but weak
// fairness makes Helper run: no bug by default, a bug with --unfair.
event ePing; event eWork; event eStart; event eDone; event eGo;
spec Finishes observes eStart, eDone {
  start cold state Idle { on eStart goto Busy; }
  hot state Busy { on eDone goto Idle; }
}
machine Helper {
  start state S { on eGo do { announce eDone; } }
}
machine Worker {
  var n: int;
  start state S {
    entry { send this, eWork; }
    on eWork do { n = 1 - n; send this, eWork; }
  }
}
machine Main {
  start state S {
    entry { var h: Helper; new Worker(); announce eStart; h = new Helper(); send h, eGo; send this, ePing; }
    on ePing do { send this, ePing; }
  }
}
