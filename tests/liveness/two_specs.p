// Two specs, the second stuck: Toggles goes hot and cold every round (its
// hot stretches end: no hot cycle), Stuck turns hot once and stays so
// while Main loops.  The fair hot cycle is Stuck's, and the bug names it.
event ePing; event eUp; event eDown; event eStart; event eDone;
spec Toggles observes eUp, eDown {
  start cold state Down { on eUp goto Up; on eDown goto Down; }
  hot state Up { on eDown goto Down; on eUp goto Up; }
}
spec Stuck observes eStart, eDone {
  start cold state Idle { on eStart goto Busy; }
  hot state Busy { on eDone goto Idle; }
}
machine Main {
  var up: bool;
  start state S {
    entry { announce eStart; send this, ePing; }
    on ePing do { up = !up; if (up) { announce eUp; } else { announce eDown; } send this, ePing; }
  }
}
