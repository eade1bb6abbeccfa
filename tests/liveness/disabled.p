// Fair although a machine never runs on the cycle: Main and Echo play
// ping-pong forever with the spec hot; Waiter is blocked in receive for an
// event nobody sends, so it is disabled in every state of the cycle, and
// Main and Echo are each disabled while the other one works.  Weak
// fairness asks nothing of a machine that is disabled somewhere on the
// cycle: reported.
event ePing: machine; event ePong; event eStart; event eDone; event eNever;
spec Finishes observes eStart, eDone {
  start cold state Idle { on eStart goto Busy; }
  hot state Busy { on eDone goto Idle; }
}
machine Waiter {
  start state S { entry { receive { case eNever: { announce eDone; } } } }
}
machine Echo {
  start state S { on ePing do (m: machine) { send m, ePong; } }
}
machine Main {
  var e: Echo;
  start state S {
    entry { var w: Waiter; announce eStart; w = new Waiter(); e = new Echo(); send e, ePing, this; }
    on ePong do { send e, ePing, this; }
  }
}
