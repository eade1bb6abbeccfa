// A store that defers a flush until it is closed: every kind of coverage
// point has a case here (tests/coverage.sh checks the report).
//  - Store.Open on eNever and Writer's `case eNever` cannot run: nobody
//    sends eNever; state Broken is never entered, so its assert is never
//    evaluated, nor is the one in the eNever handler;
//  - eFlush is deferred in Open, eNoise ignored in Open and Closing, a late
//    eWrite ignored in Flushed;
//  - the spec Watch sees eClose (Idle -> Closed) and eFlush.
event eWrite: int;
event eFlush;
event eClose;
event eNoise;
event eNever;
event eGo;

machine Store {
  var items: seq[int];
  start state Open {
    defer eFlush;
    ignore eNoise;
    on eWrite do Add;
    on eClose goto Closing;
    on eNever do { assert false, "nobody sends eNever"; }
  }
  state Closing {
    on eFlush goto Flushed;
    on eWrite do Add;
    ignore eNoise;
  }
  state Flushed {
    entry { assert sizeof(items) <= 2, format("too many items: {0}", sizeof(items)); }
    ignore eWrite, eNoise;
  }
  state Broken {
    entry { assert false; }
  }
  fun Add(v: int) { items += (sizeof(items), v); }
}

machine Writer {
  start state Init {
    entry (s: Store) {
      receive {
        case eGo: { send s, eWrite, 1; send s, eNoise; }
        case eNever: { send s, eNever; }
      }
    }
  }
}

spec Watch observes eClose, eFlush {
  start state Idle {
    on eClose goto Closed;
    on eFlush do { }
  }
  state Closed {
    on eFlush do { }
    on eClose do { assert false, "closed twice"; }
  }
}

machine Main {
  start state Init {
    entry {
      var s: Store;
      var w: Writer;
      s = new Store();
      w = new Writer(s);
      send w, eGo;
      send s, eFlush;
      send s, eWrite, 2;
      send s, eClose;
    }
  }
}

test tcStore [main = Main]: assert Watch in { Main, Store, Writer };
