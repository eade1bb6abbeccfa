// pcheck-args: --search random --seed 1 --schedules 20
// receive inside a loop; cases listing several events with one payload
// type; halt-free exit from the loop with break; events not named by any
// case wait in the inbox for the state's handlers.
event eData : int; event eMore : int; event eStop; event eLater;
machine Producer {
  start state S {
    entry (m: Main) { send m, eLater; send m, eData, 1; send m, eMore, 2; send m, eData, 3; send m, eStop; }
  }
}
machine Main {
  var total: int;
  start state S {
    entry {
      var done: bool;
      new Producer(this);
      while (!done) {
        receive {
          case eData, eMore: (x: int) { total = total + x; }
          case eStop: { done = true; }
        }
      }
      assert total == 6;
    }
    on eLater do { assert total == 6; }
  }
}
