// kinds.p: a trace with every kind of drawn event for tests/html.sh: a
// creation, sends to another machine and to itself, dequeues, a halt, a
// dropped send, a raise, a receive, a data choice, a print, a spec's state
// changes; then an assertion fails (along tests/html/kinds.schedule).
event ePing; event eGo : int; event eNote;
spec Watch observes eGo {
  start state Idle { on eGo goto Seen; }
  state Seen { on eGo goto Idle; }
}
machine Sink {
  start state S {
    on ePing do { print "sink got ping"; }
  }
}
machine Main {
  var s: Sink;
  var n: int;
  start state Init {
    entry {
      s = new Sink();
      send s, ePing;
      send s, halt;
      send this, eGo, 1;
      raise eNote;
    }
    on eNote goto Wait;
  }
  state Wait {
    entry {
      receive { case eGo: (x: int) { n = x; } }
      if ($) { n = n + 1; }
      send s, ePing;
      send this, eNote;
    }
    on eNote do { assert n > 5, format("n is {0}", n); }
  }
}
