// Strong fairness splits an SCC: on eTick Main flips $$ (true announces
// eDone: the spec leaves its hot state and nothing more happens); false
// starts a round: Main asks two Racers, each answers at once, and the
// answer that comes first decides: eA, spin again; eB, back to eTick (the
// other answer is dropped).  All hot states form one SCC; the $$ state
// has an outcome outside it and goes, which leaves the spin rounds as an
// SCC of their own: Main spins forever, Racer A answering first every
// time.  That is fair: both Racers run every round, and which of two
// sends to one inbox lands first owes nothing (it is an interleaving, not
// a choice point).  Reported, with the cycle in the spin rounds.
// (sf_split_fair.p decides the round by a data choice instead: no fair
// hot cycle.)
event eTick; event eSpin; event eAsk; event eA; event eB; event eStart; event eDone;
spec Finishes observes eStart, eDone {
  start cold state Idle { on eStart goto Busy; }
  hot state Busy { on eDone goto Idle; }
}
machine Racer {
  var m: machine; var mine: event;
  start state S {
    entry (p: (m: machine, e: event)) { m = p.m; mine = p.e; }
    on eAsk do { send m, mine; }
  }
}
machine Main {
  var a: Racer; var b: Racer;
  start state Init {
    entry {
      a = new Racer((m = this, e = eA));
      b = new Racer((m = this, e = eB));
      announce eStart;
      send this, eTick;
      goto S;
    }
  }
  state S {
    on eTick do { if ($$) { announce eDone; } else { send this, eSpin; } }
    on eSpin do { send a, eAsk; send b, eAsk; goto Wait; }
  }
  state Wait {
    on eA goto Late with { send this, eSpin; }
    on eB goto Late with { send this, eTick; }
  }
  state Late {
    on eA goto S;
    on eB goto S;
    defer eSpin, eTick;
  }
}
