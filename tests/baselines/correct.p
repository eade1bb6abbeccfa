// No bug: two senders whose events interleave in every order, a data
// choice in each, and a sink that counts.  pb must reach every state dfs
// reaches (the same distinct-state count), which takes preemptions.
event eVal : int;
machine Sink {
  var sum: int;
  start state S { on eVal do (v: int) { sum = sum + v; assert sum <= 12, "too much"; } }
}
machine Sender {
  start state S {
    entry (m: Sink) {
      if ($) { send m, eVal, 1; } else { send m, eVal, 2; }
      send m, eVal, 3;
    }
  }
}
machine Main {
  start state S { entry { var m: Sink; m = new Sink(); new Sender(m); new Sender(m); } }
}
