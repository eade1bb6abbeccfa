// Hot at every step, but not for long: as temp_long.p, except that every
// 100 rounds Main announces eDone then eStart in the same handler, so the
// spec passes through its cold state inside one step.  P resets the
// temperature whenever a spec enters a cold state: the count never passes
// about 200, and under the default threshold there is no bug (counting
// hot states between steps only, it would reach 6000).
event ePing; event eStart; event eDone;
spec Finishes observes eStart, eDone {
  start cold state Idle { on eStart goto Busy; }
  hot state Busy { on eDone goto Idle; }
}
machine Main {
  var n: int;
  start state S {
    entry { announce eStart; send this, ePing; }
    on ePing do {
      n = n + 1;
      if (n % 100 == 0) { announce eDone; announce eStart; }
      if (n < 3000) { send this, ePing; } else { announce eDone; }
    }
  }
}
