// A bug a random choice finds in a few executions and a depth-first
// search only after about a million states: 20 coin flips kept in a
// history (so no two paths merge); the bug needs the first flip to be true
// and at least 12 of the 20 true. Searches that try false first (dfs, ses)
// cover the whole false half before they reach it; random and pct find it
// within a handful of executions (about 1 in 4 under a fair coin... of the
// half where the first flip is true).
machine Main {
  var history: seq[bool];
  var ones: int;
  start state Flip {
    entry {
      var b: bool;
      b = $;
      history += (sizeof(history), b);
      if (b) { ones = ones + 1; }
      if (sizeof(history) < 20) { goto Flip; }
      assert !(history[0] && ones >= 12), format("history {0}", history);
    }
  }
}
