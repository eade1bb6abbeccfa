// pcheck-args: --search random --seed 1 --schedules 1 -v
// Inbox scan: ignored events are dropped, deferred ones stay, the first other
// event is taken; the deferred event is handled after the state changes.
event eA; event eB; event eC;
machine Main {
  start state Init {
    entry {
      send this, eA;
      send this, eB;
      send this, eC;
      goto Wait;
    }
  }
  state Wait {
    defer eA;
    ignore eB;
    on eC goto Ready;
  }
  state Ready {
    on eA do { print "eA handled after the deferral"; }
  }
}
