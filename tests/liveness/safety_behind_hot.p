// A safety bug inside a large hot region: Main announces eStart (the spec
// turns hot and stays so), then each round draws x and y among 200 values
// and counts rounds; the fifth round fails an assert.  The hot region
// holds about 200,000 states, but the first path dfs follows reaches the
// assert after a few dozen: with the hot-cycle search on the fly nothing
// waits for it, and dfs finds the bug after as many states as with
// --no-liveness (a search of the hot region from where the spec turned
// hot would explore all of it first).
event ePing; event eStart; event eDone;
spec Finishes observes eStart, eDone {
  start cold state Idle { on eStart goto Busy; }
  hot state Busy { on eDone goto Idle; }
}
machine Main {
  var x: int; var y: int; var n: int;
  start state S {
    entry { announce eStart; send this, ePing; }
    on ePing do {
      x = choose(200); y = choose(200); n = n + 1;
      assert n < 5, "the fifth round";
      send this, ePing;
    }
  }
}
