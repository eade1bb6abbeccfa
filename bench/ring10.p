// Benchmark model: ten machines pass a token around a ring, forever.
// Short handlers; every step is a dequeue, a counter update and a send.
event eToken : int;
event eSetNext : machine;

machine Node {
  var next: machine;
  var seen: int;
  start state Wait {
    on eSetNext goto Run with (m: machine) { next = m; }
  }
  state Run {
    on eToken do (hops: int) {
      seen = seen + 1;
      send next, eToken, hops + 1;
    }
  }
}

machine Main {
  start state Init {
    entry {
      var nodes: seq[machine];
      var i: int;
      while (i < 10) {
        nodes += (i, new Node());
        i = i + 1;
      }
      i = 0;
      while (i < 10) {
        send nodes[i], eSetNext, nodes[(i + 1) % 10];
        i = i + 1;
      }
      send nodes[0], eToken, 0;
    }
  }
}
