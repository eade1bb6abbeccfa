// pcheck-args: --search dfs -q --mem 64M
// P: a spec asserted on a module observes the sends of the machines bound
// in that module only.  Counter is asserted on { A } and so sees A's ePing
// but not B's; it would fail its assertion on a second ePing.
event ePing;
spec Counter observes ePing {
  var n: int;
  start state Count { on ePing do { n = n + 1; assert n == 1, "Counter saw a ping from B"; } }
}
machine A { start state S { entry { send this, ePing; } on ePing do { } } }
machine B { start state S { entry { send this, ePing; } on ePing do { } } }
machine Main { start state S { entry { new A(); new B(); } } }
test tcScoped [main=Main]: (union (assert Counter in { A }), { B, Main });
