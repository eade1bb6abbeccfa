// Open (not a reduction bug; genmodel seed 130 of the first extras version):
// dfs and ses used to spend all their time in the hot-cycle search from the
// initial state (Live is hot for ever) and end only at --timeout:
//   pcheck --search dfs --max-inbox 5 --timeout 30 hot-search-no-end.p
// reported "states: 1 ... bounded: timeout" at any --mem.  Since the
// hot-cycle search goes on the fly (dfs) or at the main search's pace
// (ses, dfs -j N; doc/liveness.md 3.2, 3.3), each finds the inbox overflow
// at once (2026-12-02: 13 to 51 states).  What stays open: in gdb, the
// search of its own's visited set was full (flat, 117,965 of 131,072
// slots, 2.6 million inserts refused at --mem 16M): search_spec then
// enters again every state it has finished (an insert refused is taken
// as new), and gives the spec up only when its stack outgrows its budget,
// which a wide hot subgraph never does; a model without the overflow
// would still drain that search until --timeout.
// max-inbox: 5
// extras: pump x1 forever; main-loop bounded; sink handlers halts unbounded; counters; self-send-loop; live hot-forever;
event ePing : (m: machine, v: int);
event eInfo : int;
event eWork : int;
event eBegin;
event eEnd;

spec Balanced observes eBegin, eEnd {
  var n: int;
  var last: int;
  var seen: int;
  start cold state Idle {
    on eBegin goto Busy;
    ignore eEnd;
  }
  hot state Busy {
    entry { last = 0; }
    on eBegin do {
      assert seen != 3, format("{0} before eBegin", seen);
      seen = 4;
      if (n < 3) { n = n + 1; }
      if (n < 3) { n = n + 1; }
      assert last != 2;
    }
    on eEnd goto Idle;
  }
}

spec Checker observes ePing, eInfo {
  var n: int;
  var last: int;
  var seen: int;
  start cold state Watch {
    entry { last = 0; }
    on ePing do (p: (m: machine, v: int)) {
      assert seen != 2, format("{0} before ePing", seen);
      seen = 1;
      if (n < 3) { n = n + 1; }
      if (n < 3) { n = n + 1; }
    }
    ignore eInfo;
  }
}

spec Live observes eWork, eInfo {
  var n: int;
  start hot state Hot {
    on eWork do (p: int) { if (n < 3) { n = n + 1; } }
    ignore eInfo;
  }
}

machine Main {
  var x: int;
  var fuel: int;
  var hops: int;
  var peer: machine;
  var seen: int;
  var k0: machine;
  var k1: Store;
  var c: int;
  var xi: int;
  var sink: machine;
  start state Init {
    entry {
      fuel = 1;
      hops = 2;
      k0 = new Proxy(this);
      receive {
        case ePing: (q: (m: machine, v: int)) {
          assert q.m != null, "hello from a machine";
          x = (x + 1) % 3;
        }
      }
      k1 = new Store();
      peer = k0;
      sink = new Sink(this);
      new Pump(k1);
      send k0, eWork, x;
      xi = 0;
      while (xi < 6) {
        if ($) {
          send sink, eInfo, 0;
        } else {
          send sink, eInfo, choose(3);
        }
        c = c + 1;
        send sink, eInfo, choose(3);
        xi = xi + 1;
      }
      goto S1;
    }
    on ePing goto S1;
    on eWork do (p: int) {
      seen = 3;
      c = c + 1;
      x = 0;
    }
    defer eInfo;
  }
  state S1 {
    entry {
      var t: int;
      announce ePing, (m = this, v = 2);
    }
    on eInfo goto S1 with (p: int) {
      if ($$) {
        assert x != 3;
      } else {
        assert fuel >= 0;
        assert x >= 0 && x < 3, format("x is {0}", x);
      }
    }
    on eWork do (p: int) {
      seen = 3;
      c = c + 1;
      if (hops > 0) {
        hops = hops - 1;
        goto S1;
      }
      x = (x + 1) % 3;
    }
    ignore ePing;
  }
}

machine Proxy {
  var x: int;
  var fuel: int;
  var hops: int;
  var peer: machine;
  var c: int;
  var xi: int;
  start state Init {
    entry (p: machine) {
      fuel = 0;
      hops = 1;
      peer = p;
      send p, ePing, (m = this, v = 0);
      peer = new Store();
      if (fuel > 0) {
        fuel = fuel - 1;
        send this, eWork, 1;
      }
      x = 2;
    }
    exit {
      var t: int;
      if (x != 2) {
        announce eWork, 1;
      } else {
        x = 0;
      }
    }
    on ePing goto S1;
    on eWork do (p: int) {
      var t: int;
      c = c + 1;
      assert x != 3;
      if (hops > 0) {
        hops = hops - 1;
        raise ePing, (m = peer, v = (x + 1) % 3);
      }
    }
  }
  state S1 {
    entry {
      if (fuel > 0) {
        fuel = fuel - 1;
        send this, eWork, 0;
      }
      if (fuel > 0) {
        fuel = fuel - 1;
        send this, halt;
      }
    }
    on ePing goto S1;
    on eInfo do (p: int) {
      c = c + 1;
      send this, eInfo, choose(3);
      if (p != 2) {
        if (fuel > 0) {
          fuel = fuel - 1;
          send peer, eWork, 2;
        }
      }
      print format("{0}: x = {1}", this, x);
      assert fuel >= 0;
    }
    on eWork goto S1 with (p: int) {
      if (fuel > 0) {
        fuel = fuel - 1;
        send this, ePing, (m = peer, v = 2);
      }
    }
    on null do {
      var t: int;
      raise halt;
    }
  }
}

machine Store {
  var x: int;
  var fuel: int;
  var hops: int;
  var peer: machine;
  var seen: int;
  var c: int;
  var xi: int;
  start state Init {
    entry {
      fuel = 1;
      hops = 1;
      if (fuel > 0) {
        fuel = fuel - 1;
        if (peer != null) {
          send peer, eInfo, 1;
        }
      }
      announce eInfo, 2;
    }
    on eInfo do (p: int) {
      seen = 2;
      c = c + 1;
      if (x != 2) {
        if (fuel > 0) {
          fuel = fuel - 1;
          if (peer != null) {
            send peer, eInfo, (x + 2) % 3;
          }
        }
        if (fuel > 0) {
          fuel = fuel - 1;
          send this, eInfo, p;
        }
      } else {
        if (peer == null) {
          if (fuel > 0) {
            fuel = fuel - 1;
            if (peer != null) {
              send peer, halt;
            }
          }
          if (fuel > 0) {
            fuel = fuel - 1;
            if (peer != null) {
              send peer, ePing, (m = this, v = p);
            }
          }
        }
        assert p >= 0 && p <= 2;
      }
      if (fuel > 0) {
        fuel = fuel - 1;
        if (peer != null) {
          send peer, eWork, 0;
        }
      }
    }
    on eWork goto S1 with (p: int) {
      if (fuel > 0) {
        fuel = fuel - 1;
        send this, ePing, (m = this, v = choose(3));
      }
    }
  }
  state S1 {
    entry {
      var t: int;
      t = 0;
      while (t < 1) {
        if (choose()) {
          if (fuel > 0) {
            fuel = fuel - 1;
            send this, ePing, (m = this, v = x);
          }
          x = 2;
        } else {
          x = 2;
        }
        t = t + 1;
      }
      if (fuel > 0) {
        fuel = fuel - 1;
        if (peer != null) {
          send peer, ePing, (m = peer, v = x);
        }
      }
    }
    on ePing do On_ePing_1;
    on eInfo goto S2;
    defer eWork;
  }
  state S2 {
    entry {
      announce eWork, 2;
    }
    on ePing do (p: (m: machine, v: int)) {
      var t0: machine;
      t0 = p.m;
      peer = t0;
      c = c + 1;
      x = (x + 1) % 3;
    }
    on eInfo do (p: int) {
      assert seen >= 0 && seen <= 5;
      seen = 2;
      c = c + 1;
      if (hops > 0) {
        hops = hops - 1;
        goto S2;
      }
      if (x != 0) {
        if (fuel > 0) {
          fuel = fuel - 1;
          send this, eInfo, x;
        }
        announce eWork, (x + 1) % 3;
      }
      if (fuel > 0) {
        fuel = fuel - 1;
        send this, eWork, p;
        receive {
          case eWork: (q: int) {
            announce eWork, q;
            announce eInfo, (x + 2) % 3;
          }
          case eInfo: (q: int) {
            if (fuel > 0) {
              announce eInfo, choose(3);
            } else {
              x = 0;
            }
          }
        }
      }
    }
    defer eWork;
  }
  fun On_ePing_1(p: (m: machine, v: int)) {
    seen = 1;
    if (fuel > 0) {
      fuel = fuel - 1;
      if (peer != null) {
        send peer, eWork, (x + 2) % 3;
      }
    }
    if (fuel > 0) {
      assert x != 3;
      if (fuel > 0) {
        fuel = fuel - 1;
        send this, eWork, p.v;
      }
    }
  }
}

machine Pump {
  var tgt: machine;
  var c: int;
  var xi: int;
  start state Init {
    entry (p: machine) {
      tgt = p;
      while (true) {
        send tgt, eInfo, choose(3);
        send tgt, ePing, (m = this, v = 2);
        if ($) {
          send tgt, eInfo, 0;
        } else {
          send tgt, eInfo, 1;
        }
      }
    }
    ignore ePing, eInfo, eWork;
  }
}

machine Sink {
  var c: int;
  var boss: machine;
  start state S {
    entry (p: machine) {
      boss = p;
    }
    on ePing do (q: (m: machine, v: int)) { c = c + 1; if (c == 2) { raise halt; } }
    on eInfo do (q: int) { c = c + 1; if (c == 2) { raise halt; } }
    on eWork do (q: int) { c = c + 1; if (c == 2) { raise halt; } }
  }
}

test tcMain [main=Main]: assert Balanced, Checker, Live in { Main, Proxy, Store, Pump, Sink };
