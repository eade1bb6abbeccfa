// long.p: a long counterexample for tests/html.sh (the 2,000-step report).
// Main and Pong pass a ball back and forth, each time one more; Pong
// alternates between two states, the spec Rally watches every pass, and
// Pong's assertion fails when the ball reaches 1000: about 2,000 steps.
event eBall : int;
spec Rally observes eBall {
  var last: int;
  start state Watching { on eBall do (n: int) { last = n; } }
}
machine Pong {
  var server: machine;
  var hits: int;
  start state Init {
    entry (m: machine) { server = m; goto Even; }
  }
  state Even {
    on eBall do (n: int) { hit(n); goto Odd; }
  }
  state Odd {
    on eBall do (n: int) { hit(n); goto Even; }
  }
  fun hit(n: int) {
    hits = hits + 1;
    assert n < 1000, format("the ball reached {0} after {1} hits", n, hits);
    send server, eBall, n + 1;
  }
}
machine Main {
  var pong: Pong;
  var served: int;
  start state Serve {
    entry {
      pong = new Pong(this);
      served = 0;
      send pong, eBall, 0;
      goto Rally;
    }
  }
  state Rally {
    on eBall do (n: int) { served = n + 1; send pong, eBall, served; }
  }
}
