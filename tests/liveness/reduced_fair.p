// A fair hot cycle in the reduced graph: Main pings itself forever after
// announcing eStart, and two Workers ping themselves forever too; nothing
// announces eDone.  The Workers' steps commute with Main's and with each
// other's, so the partial-order reduction explores few interleavings, but
// every cycle of what it explores has a state explored in full (the
// cycle proviso), so a cycle on which all three run is there: reported
// by dfs on the fly, the reduction on ("transitions pruned").
event ePing; event eWork; event eStart; event eDone;
spec Finishes observes eStart, eDone {
  start cold state Idle { on eStart goto Busy; }
  hot state Busy { on eDone goto Idle; }
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
    entry { new Worker(); new Worker(); announce eStart; send this, ePing; }
    on ePing do { send this, ePing; }
  }
}
