// pcheck-args: --search random --seed 1 --schedules 20
// A spec that changes state and raises its own event.
event eTick; event eInternal;
spec Counter observes eTick {
  var n: int;
  start state Low {
    on eTick do { n = n + 1; if (n == 2) { raise eInternal; } }
    on eInternal goto High;
  }
  state High { entry { assert n == 2; } ignore eTick; }
}
machine Main { start state S { entry { announce eTick; announce eTick; announce eTick; } } }
