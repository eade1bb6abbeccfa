// A real, fair hot cycle: Main pings itself forever after announcing
// eStart, and nothing ever announces eDone.  Main is the only machine and
// it runs on every step: reported by default, by dfs and by ses.
event ePing; event eStart; event eDone;
spec Finishes observes eStart, eDone {
  start cold state Idle { on eStart goto Busy; }
  hot state Busy { on eDone goto Idle; }
}
machine Main {
  start state S {
    entry { announce eStart; send this, ePing; }
    on ePing do { send this, ePing; }
  }
}
