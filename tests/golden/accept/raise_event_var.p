// pcheck-args: --search random --seed 1 --schedules 20
// raise, send and announce take any expression of type event.
event eA; event eB;
spec Seen observes eA, eB { start state S { on eA, eB do { } } }
machine Main {
  var which: event;
  var count: int;
  start state S {
    entry {
      which = eA;
      if ($) { which = eB; }
      announce which;
      send this, which;
      raise which;
    }
    on eA, eB do { count = count + 1; assert count <= 2; }
  }
}
