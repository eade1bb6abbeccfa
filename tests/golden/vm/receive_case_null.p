// pcheck-args: --search random --seed 1 --schedules 1 -v
// `case null` is accepted in a receive (P), but no event is null: the case
// never fires; a machine left waiting for it alone is a deadlock.
event eA : int;
machine Main {
  start state S {
    entry {
      send this, eA, 3;
      receive {
        case null: { print "null fired"; }
        case eA: (x: int) { print format("eA {0}", x); }
      }
      receive { case null: { print "null fired"; } }
    }
  }
}
