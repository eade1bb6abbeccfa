// pcheck-args: --search random --seed 1 --schedules 1 -v
// receive blocks until a matching event arrives; other events stay in the
// inbox (implicitly deferred) and are handled afterwards.
event eOther; event eWanted : int;
machine Main {
  start state Init {
    entry {
      var got: int;
      send this, eOther;
      send this, eWanted, 42;
      receive {
        case eWanted: (v: int) { got = v; }
      }
      print format("received {0}", got);
      assert got == 42;
    }
    on eOther do { print "eOther handled after the receive"; }
  }
}
