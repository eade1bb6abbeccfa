// A bug that needs exactly one preemption: A sends eA1 and eA2 in one
// handler (each send is a scheduling point), B sends eB; the assertion
// fails when eB lands between A's two sends, i.e. when A is switched away
// from while it can still run.  With fixed priorities (pct --pct-depth 1)
// this order is impossible: the highest-priority enabled machine runs, and
// B cannot become enabled while A is between its sends.
event eA1;
event eA2;
event eB;
machine Sink {
  var gotA1: bool;
  var gotB: bool;
  start state S {
    on eA1 do { gotA1 = true; }
    on eB do { if (gotA1) { gotB = true; } }
    on eA2 do { assert !gotB, "eB arrived between eA1 and eA2"; }
  }
}
machine A {
  start state S { entry (m: Sink) { send m, eA1; send m, eA2; } }
}
machine B {
  start state S { entry (m: Sink) { send m, eB; } }
}
machine Main {
  start state S { entry { var m: Sink; m = new Sink(); new A(m); new B(m); } }
}
