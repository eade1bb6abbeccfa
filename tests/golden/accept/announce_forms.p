// pcheck-args: --search random --seed 1 --schedules 20
// announce with no payload, one value, a named tuple and a tuple;
// several specs observe overlapping event sets; machines need no handler.
event eStart; event eCount : int; event eInfo : (who: machine, n: int); event ePair : (int, int);
spec A observes eStart, eCount {
  var total: int;
  start state S { on eStart do { total = 0; } on eCount do (n: int) { total = total + n; assert total <= 3; } }
}
spec B observes eInfo, ePair, eCount {
  start state S {
    on eInfo do (i: (who: machine, n: int)) { assert i.n == 1; }
    on ePair do (p: (int, int)) { assert p.0 < p.1; }
    ignore eCount;
  }
}
machine Main {
  start state S {
    entry {
      announce eStart;
      announce eCount, 1;
      announce eCount, 2;
      announce eInfo, (who = this, n = 1);
      announce ePair, (1, 2);
    }
  }
}
