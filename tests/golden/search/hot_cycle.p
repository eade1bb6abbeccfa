// pcheck-args: --search dfs --mem 64M -o $TMP
// Liveness: Main keeps pinging itself forever while the spec waits in a
// hot state for eDone, which never comes.
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
