// SES, then SS: a bug that needs four delays under rr, in a state space
// whose first strata outgrow a 1 MiB state cache.  Senders S1..S7 are
// created in order and each sends its number to the counter once; the
// counter fails if the first number it gets is 5 (under rr, S1..S4 must
// each be delayed once first).  Four workers, created first, each count
// to four by sending themselves events: every delay among them makes new
// states, so with --mem 1M ses fills its cache during delay bound 3
// (98,306 states) and samples from its frontier, where it finds the bug
// in about 85,000 executions (2 s); with --no-sampling the full cache
// makes it re-explore, and it needs 1.9 million states, 1.3 GB of
// frontier and 30 s.
event eHello : int;
event eTick;

machine Counter {
  start state Wait {
    on eHello do (n: int) {
      assert n != 5, format("the first hello came from sender {0}", n);
      goto Done;
    }
  }
  state Done { ignore eHello; }
}

machine Sender {
  start state Init {
    entry (p: (c: Counter, n: int)) { send p.c, eHello, p.n; }
  }
}

machine Worker {
  var count: int;
  start state Run {
    entry { send this, eTick; }
    on eTick do {
      count = count + 1;
      if (count < 4) send this, eTick;
    }
  }
}

machine Main {
  start state Init {
    entry {
      var c: Counter;
      var i: int;
      i = 0;
      while (i < 4) { new Worker(); i = i + 1; }
      c = new Counter();
      i = 1;
      while (i <= 7) {
        new Sender((c = c, n = i));
        i = i + 1;
      }
    }
  }
}

test tcDeepDelays [main=Main]: { Main, Counter, Sender, Worker };
