// A safety bug beside a hot region too large to search: Main announces
// eStart (the spec turns hot in the third state and stays so), then
// Counter draws three numbers among 1000 (a billion hot states, none on a
// cycle) while Main fails an assert on its third eGo.  ses and dfs find
// the assert after 8 states.  The hot-cycle search of their own (ses, dfs
// on threads) starts where the spec turns hot; paced by the main search
// it must not hold it back (searched to its end first, the billion
// states would come before the main search's next step).
event eStart; event eGo;
spec Finishes observes eStart {
  start cold state Idle { on eStart goto Busy; }
  hot state Busy { }
}
machine Counter {
  var a: int; var b: int; var c: int;
  start state S {
    entry { a = choose(1000); b = choose(1000); c = choose(1000); }
  }
}
machine Main {
  var k: int;
  start state S {
    entry { announce eStart; new Counter(); send this, eGo; }
    on eGo do {
      k = k + 1;
      assert k < 3, "the third go";
      send this, eGo;
    }
  }
}
