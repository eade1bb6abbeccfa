// A shallow race: the sink asserts that A's event arrives before B's.
event eA;
event eB;
machine Sink {
  var gotA: bool;
  start state S {
    on eA do { gotA = true; }
    on eB do { assert gotA, "eB arrived before eA"; }
  }
}
machine A { start state S { entry (m: Sink) { send m, eA; } } }
machine B { start state S { entry (m: Sink) { send m, eB; } } }
machine Main {
  start state S { entry { var m: Sink; m = new Sink(); new A(m); new B(m); } }
}
