// A bug only the exhaustive members find soon: 40 fair coins ($$), the
// bug needing all of them false.  dfs and ses try false first and reach it
// on their first path; random, pct and ss (which draws each $$ at random)
// would need about 2^40 executions.
machine Main {
  var flips: int;
  var heads: int;
  start state Flip {
    entry {
      if ($$) { heads = heads + 1; }
      flips = flips + 1;
      if (flips < 40) { goto Flip; }
      assert heads > 0, "forty tails in a row";
    }
  }
}
