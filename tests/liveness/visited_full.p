// The search of its own in the full graph (dfs -j N --no-reduction) over
// a hot region larger than its
// visited set: two Counters count to 400 each while Busy is hot (a grid
// of about 160,000 states), and Busy turns cold when both are done: no
// bug.  At --frontier-mem 4M the visited set (an eighth: 1 MiB, about
// 117,000 states) fills; the spec's search is then given up and the
// result says so (bounded), instead of searching again every finished
// state it could not record whenever it is met, which never ended
// (tests/liveness.sh, 4).  Reduced (ses by default) the Counters' steps
// are independent: the search of its own covers a path of about 800
// states, and fits.
event eHot; event eDone; event eTick;
spec Busy observes eHot, eDone {
  start cold state Idle { on eHot goto Both; }
  hot state Both { on eDone goto One; }
  hot state One { on eDone goto Idle; }
}
machine Counter {
  var n: int;
  start state Count {
    entry { send this, eTick; }
    on eTick do { if (n < 400) { n = n + 1; send this, eTick; } else { announce eDone; } }
  }
}
machine Main {
  start state Init { entry { announce eHot; new Counter(); new Counter(); } }
}
