// pcheck-args: --search dfs --mem 64M
// States worked out by hand: Main creates two Workers (each `new` is a
// scheduling point); a Worker's only step is to start.  Main has phases
// start, after new #1, after new #2, done; each Worker created, started.
// Reachable: 11 states, 16 transitions (see tests/search.sh).
machine Worker { start state S { } }
machine Main {
  start state S {
    entry {
      new Worker();
      new Worker();
    }
  }
}
