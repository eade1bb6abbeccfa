// A bug dfs finds on its first path and the other members not soon: Main
// starts eight workers, each of which then reports five times to a sink;
// the bug is that every worker was started before any reported, and that
// they reported one after another in the order they were created.
// - dfs runs the enabled machine created first, everywhere: Main until it
//   is done, then the workers in order: the bug after 116 states (0.00 s);
// - rtc runs a worker as soon as it is started (the receiver first):
//   ses needs a delay at each of the eight starts, so all of delay bounds
//   0 to 7 first: in 20 s it proves bound 3 (4.3 million states) and no
//   more; ss draws ten times more samples at each bound than at the one
//   before, and would need its 8 delays on 8 given points: none in 20 s
//   (270,000 executions, up to bound 4);
// - random would need Main to win 8 draws in a row and then each worker
//   to win every draw while the others wait: none in 20 s (240,000);
// - pct follows one order of priorities; the bug needs Main's highest and
//   the workers' in creation order, 1 in 9! = 362,880: none in 300,000.
// The portfolio (--seed 1) finds it by dfs after the same 116 states.
event eStart;
event eAllStarted;
event eNum : int;

machine Sink {
  var seen: seq[int];    // the workers' reports, in order
  var first: bool;       // Main's word that all are started came before any report
  start state Listen {
    on eAllStarted do { first = sizeof(seen) == 0; }
    on eNum do (id: int) {
      var i: int;
      var sorted: bool;
      seen += (sizeof(seen), id);
      if (first && sizeof(seen) == 40) {
        sorted = true;
        i = 1;
        while (i < 40) { if (seen[i] < seen[i - 1]) { sorted = false; } i = i + 1; }
        assert !sorted, "every worker started before any reported, and they reported in creation order";
      }
    }
  }
}

machine Worker {
  var sink: Sink;
  var id: int;
  start state Idle {
    entry (p: (s: Sink, id: int)) { sink = p.s; id = p.id; }
    on eStart do {
      var i: int;
      while (i < 5) { send sink, eNum, id; i = i + 1; }
    }
  }
}

machine Main {
  start state Init {
    entry {
      var s: Sink;
      var w: seq[Worker];
      var i: int;
      s = new Sink();
      while (i < 8) { w += (i, new Worker((s = s, id = i))); i = i + 1; }
      i = 0;
      while (i < 8) { send w[i], eStart; i = i + 1; }
      send s, eAllStarted;
    }
  }
}
