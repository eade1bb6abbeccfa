// pcheck-args: --search random --seed 1 --schedules 20
// receive with several cases, payloads and locals.
event eA : int; event eB; event eC;
machine Main {
  start state S {
    entry {
      var total: int;
      send this, eB;
      send this, eA, 4;
      receive {
        case eA: (x: int) { total = total + x; }
        case eB, eC: { total = total + 100; }
      }
      assert total == 100;
      receive { case eA: (y: int) { var z: int; z = y * 2; total = total + z; } }
      assert total == 108;
    }
  }
}
