// A bug ss (with rtc) finds in a few hundred executions and the other
// members not soon: two tickers of 450 ticks each report every tenth tick
// to a sink; the bug is four runs of reports, the first two of them long
// (at least 10 reports, 56 together, that is 560 ticks or some 1,150
// scheduling steps, before the third run starts).
// - rtc runs the first ticker to its end, then the second: two runs.  A
//   delay anywhere in the first ticker's last 340 ticks lets the second
//   run, and a second delay anywhere in that run's latter part hands back
//   to the first: about 1 sample in 9 with 2 delays finds it (measured with
//   --ss-schedule strata, seeds 1-20), so ss does after about 410
//   executions (0.3 s; almost all of them the samples with one delay it
//   draws before 2 delays get their first turn);
// - random interleaves the tickers: no run of 10 reports, none in 20,000
//   executions;
// - pct cannot: its 2 priority change points fall among the first 1,000
//   steps, and only a change point stops a ticker before its end (none in
//   20,000);
// - ses needs 2 delays, so all of delay bounds 0 and 1 first, with every
//   coin's other value counted as a delay: 10 million states, then it
//   samples from its frontier; dfs faces 2^45 coin histories below its
//   first path (17 million states).  Neither finds it in 20 s.
// The portfolio (--seed 1) finds it by ss after 406 executions, in about
// 4 s on one thread (9 to 11 s before sampling members kept at least half
// an exhaustive member's turn: exhaustive turns double, sampling turns
// grow by half).
// (The coins are irrelevant to the bug: they only keep histories apart.)
event eTick;
event eNum : int;

machine Sink {
  var cur: int;    // the ticker of the current run of reports
  var len: int;    // its length so far
  var r1: int;     // the lengths of the three runs before it, latest first
  var r2: int;
  var r3: int;
  start state Listen {
    on eNum do (id: int) {
      if (id != cur) {
        r3 = r2; r2 = r1; r1 = len;
        cur = id; len = 0;
        assert !(r3 >= 10 && r2 >= 10 && r3 + r2 >= 56), format("runs of {0}, {1} and {2} reports", r3, r2, r1);
      }
      len = len + 1;
    }
  }
}

machine Ticker {
  var sink: Sink;
  var id: int;
  var n: int;
  var h: int;
  start state Run {
    entry (p: (s: Sink, id: int)) { sink = p.s; id = p.id; send this, eTick; }
    on eTick do {
      n = n + 1;
      if (n % 10 == 0) {
        if ($$) { h = (2 * h + 1) % 999983; } else { h = (2 * h) % 999983; }
        send sink, eNum, id;
      }
      if (n < 450) { send this, eTick; }
    }
  }
}

machine Main {
  start state Init {
    entry {
      var s: Sink;
      s = new Sink();
      new Ticker((s = s, id = 1));
      new Ticker((s = s, id = 2));
    }
  }
}
