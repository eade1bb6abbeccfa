// One choice point of Main in two states that differ only in Main's
// inbox: Main sends itself eGo and then eX or eY (a data choice), and at
// eGo flips $ between A and B; A takes eX back to W and answers eY with
// eDone, B the other way round.  In each state of that choice one option
// ends the hot stretch, so no fair execution stays hot: no bug; with
// --unfair, a bug.  Under the reduction, dfs on the fly first checks
// choice points by the choosing machine's record (without its inbox),
// which trace equivalence keeps: by that key both options stay inside
// (A from one state, B from the other), so the set goes to the search in
// the full graph, which decides by state (doc/liveness.md, "Under the
// reduction").
event eStart; event eDone; event eGo; event eX; event eY;
spec Finishes observes eStart, eDone {
  start cold state Idle { on eStart goto Busy; }
  hot state Busy { on eDone goto Idle; }
}
machine Main {
  start state Init { entry { announce eStart; goto W; } }
  state W {
    entry { send this, eGo; if ($) { send this, eX; } else { send this, eY; } }
    on eGo do { if ($) { goto A; } else { goto B; } }
  }
  state A { on eX goto W; on eY do { announce eDone; } }
  state B { on eY goto W; on eX do { announce eDone; } }
}
