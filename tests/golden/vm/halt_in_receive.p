// pcheck-args: --search random --seed 1 --schedules 1 -v
// A halt wakes a machine blocked in receive even though no case names it
// (P): the handler is abandoned; in a state without `on halt`, the state's
// exit function runs and the machine halts; with `on halt`, that runs.
event eX;
event eGo;
machine Main {
  start state S {
    entry {
      var w: machine;
      var v: machine;
      w = new Waiter();
      send w, halt;
      v = new Catcher();
      send v, eGo;
      send v, halt;
    }
  }
}
machine Waiter {
  start state S {
    entry {
      receive { case eX: { print "eX received"; } }
      print "never printed: the receive was abandoned";
    }
    exit { print "Waiter: exit of S runs before it halts"; }
  }
}
machine Catcher {
  start state S {
    on eGo do {
      receive { case eX: { print "eX received"; } }
    }
    on halt do { print "Catcher: on halt handled it"; }
  }
}
