// A bug that needs exactly two preemptions: the sink fails only when the
// events arrive as eA1, eB1, eA2, eB2, so A must be switched away from
// between its sends (one preemption) and B between its own (another).
event eA1;
event eA2;
event eB1;
event eB2;
machine Sink {
  var seen: int;
  start state S {
    on eA1 do { if (seen == 0) { seen = 1; } }
    on eB1 do { if (seen == 1) { seen = 2; } }
    on eA2 do { if (seen == 2) { seen = 3; } }
    on eB2 do { assert seen != 3, "eA1 eB1 eA2 eB2 interleaved"; }
  }
}
machine A {
  start state S { entry (m: Sink) { send m, eA1; send m, eA2; } }
}
machine B {
  start state S { entry (m: Sink) { send m, eB1; send m, eB2; } }
}
machine Main {
  start state S { entry { var m: Sink; m = new Sink(); new A(m); new B(m); } }
}
