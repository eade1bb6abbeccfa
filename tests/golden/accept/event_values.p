// pcheck-args: --search random --seed 1 --schedules 20
// Events as values: stored, compared and sent.
event eA; event eB;
machine Main {
  var which: event;
  start state S {
    entry { if ($) { which = eA; } else { which = eB; } send this, which; }
    on eA, eB do { assert which == eA || which == eB; }
  }
}
