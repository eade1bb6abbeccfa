// pcheck-args: --search random --seed 1 --schedules 20
// Events as elements of seqs, sets and map keys, and sent from there.
event eA; event eB; event eC;
machine Main {
  var counts: map[event, int];
  start state S {
    entry {
      var order: seq[event]; var seen: set[event]; var e: event;
      order += (0, eA); order += (1, eB); order += (2, eC);
      seen += (eA); seen += (eC);
      foreach (e in order) { counts[e] = 0; if (e in seen) { send this, e; } }
      assert !(eB in seen) && sizeof(counts) == 3 && halt != eA;
      send this, choose(order);
    }
    on eA, eB, eC do { counts[eA] = counts[eA] + 1; assert counts[eA] <= 3; }
  }
}
