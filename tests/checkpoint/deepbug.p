// deepbug.p: four counters count to 10 by sending themselves ticks, each
// announcing when it is done; the spec fails when the first three to finish
// are 3, 2 and 1.  A deep bug (about 40 ticks in), which breadth-first search
// meets at its last levels after some 460,000 states and ses at delay bound
// 6 (with --no-reduction).  For tests/checkpoint.sh: a bug found after a
// search was stopped and resumed is the one, with the trace, of the run that
// was never stopped.
event eTick;
event eDone: int;

spec Order observes eDone {
  var order: seq[int];
  start state Watch {
    on eDone do (id: int) {
      order += (sizeof(order), id);
      assert !(sizeof(order) == 3 && order[0] == 3 && order[1] == 2 && order[2] == 1),
        "the counters finished in the order 3, 2, 1";
    }
  }
}

machine Counter {
  var n: int;
  var id: int;
  start state Run {
    entry (i: int) {
      id = i;
      send this, eTick;
    }
    on eTick do {
      n = n + 1;
      if (n < 10) {
        send this, eTick;
      } else {
        announce eDone, id;
      }
    }
  }
}

machine Main {
  start state Start {
    entry {
      new Counter(0);
      new Counter(1);
      new Counter(2);
      new Counter(3);
    }
  }
}
