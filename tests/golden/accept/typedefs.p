// pcheck-args: --search random --seed 1 --schedules 20
// Type declarations, nested and used as payloads.
type tId = int;
type tPair = (a: tId, b: tId);
type tPairs = seq[tPair];
event eP : tPair;
machine Main {
  var all: tPairs;
  start state S {
    entry { send this, eP, (a = 1, b = 2); }
    on eP do (p: tPair) { all += (0, p); assert all[0].b == 2; }
  }
}
