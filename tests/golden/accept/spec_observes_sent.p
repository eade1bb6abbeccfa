// pcheck-args: --search random --seed 1 --schedules 20
// A spec observes events that machines send (not only announce); it has
// a hot start state, entry and exit functions, a goto-with handler and
// a payload-taking entry.
event ePing : int; event ePong : int;
spec PingPong observes ePing, ePong {
  var pings: int;
  start hot state WaitPing {
    entry { pings = pings + 0; }
    on ePing goto WaitPong with (n: int) { pings = pings + 1; }
  }
  hot state WaitPong {
    exit { assert pings >= 1; }
    on ePong goto Quiet;
  }
  cold state Quiet {
    entry (n: int) { assert n == pings; }
    on ePing goto WaitPong;
  }
}
machine Echo { start state S { on ePing do (n: int) { send this, ePong, n; } on ePong do { } } }
machine Main {
  start state S { entry { var e: Echo; e = new Echo(); send e, ePing, 1; } }
}
