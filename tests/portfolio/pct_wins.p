// A bug pct finds in tens of executions and the other members not soon:
// the marker must reach the sink between the ticker's 100th and 110th
// number, that is, the marker machine must sit still for some 200 steps
// while it could run, then run within a window of about 20 steps.
// - random picks the marker at each step with probability about 1/3: it
//   sends its mark in the first few steps;
// - pct gives the marker a lower priority than the ticker half the time,
//   and a priority change point (one of two among the first 1000 steps)
//   falls in the window about 2% of the time;
// - dfs runs the marker first (it was created first) and then faces
//   2^300 coin histories below it;
// - ses with rtc needs the marker delayed and the ticker delayed inside
//   the window, with every coin's other value counted as a delay too: the
//   strata below are millions of states;
// - ss with rtc needs its 2 delays placed in the right spots among some
//   600: about 1 sample in 20,000.
event eMark;
event eNum : int;
event eTick;

machine Sink {
  var last: int;
  start state Listen {
    on eNum do (n: int) { last = n; }
    on eMark do {
      assert !(last >= 100 && last < 110), format("the mark came after number {0}", last);
    }
  }
}

machine Marker {
  start state Init {
    entry (s: Sink) { send s, eMark; }
  }
}

machine Ticker {
  var sink: Sink;
  var n: int;
  var coins: seq[bool];
  start state Run {
    entry (s: Sink) { sink = s; send this, eTick; }
    on eTick do {
      n = n + 1;
      coins += (sizeof(coins), $);   // irrelevant to the bug: no two histories merge
      send sink, eNum, n;
      if (n < 300) send this, eTick;
    }
  }
}

machine Main {
  start state Init {
    entry {
      var s: Sink;
      s = new Sink();
      new Marker(s);
      new Ticker(s);
    }
  }
}
