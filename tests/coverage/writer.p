// Bita's example: a writer receives two writes and a flush from three
// senders.  Its receives w1, w2, f make 3 pairs, 6 PR goals (both orders
// of each); the schedules w1 w2 f and f w2 w1 cover all 6.  The flush
// changes the writer's state, so the PBR goals are the 4 orders of
// (w1, f) and (w2, f); PCR's are the 4 orders of (w1, w2) and (w2, f),
// never (w1, f) consecutive in those two schedules, though other
// schedules make them so (tests/unit/test_coverage.c, tests/coverage.sh).
event eWrite: int;
event eFlush;

machine Writer {
  var written: seq[int];
  start state Open {
    on eWrite do (v: int) { written += (sizeof(written), v); }
    on eFlush goto Flushed;
  }
  state Flushed {
    on eWrite do (v: int) { written += (sizeof(written), v); }
  }
}

machine WriteOne { start state Init { entry (w: Writer) { send w, eWrite, 1; } } }
machine WriteTwo { start state Init { entry (w: Writer) { send w, eWrite, 2; } } }
machine Flusher { start state Init { entry (w: Writer) { send w, eFlush; } } }

machine Main {
  start state Init {
    entry {
      var w: Writer;
      w = new Writer();
      new WriteOne(w);
      new WriteTwo(w);
      new Flusher(w);
    }
  }
}
