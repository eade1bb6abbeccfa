// pcheck-args: --search random --seed 1 --schedules 20
// Several payload values form a tuple for new, send and raise; goto and
// announce take one value, here a tuple literal.
event ePair : (int, string);
event eTriple : (int, int, int);
event eNote : (bool, int);
spec Notes observes eNote {
  start state S { on eNote do (n: (bool, int)) { assert n.0 && n.1 == 4; } }
}
machine Worker {
  start state S { entry (p: (int, bool)) { assert p.0 == 1 && p.1; } }
}
machine Main {
  start state A {
    entry {
      new Worker(1, true);
      send this, ePair, 2, "two";
    }
    on ePair do (p: (int, string)) { assert p.0 == 2 && p.1 == "two"; raise eTriple, 1, 2, 3; }
    on eTriple do (t: (int, int, int)) { announce eNote, (true, 4); goto B, (t.0 + t.1 + t.2, "sum"); }
  }
  state B { entry (r: (int, string)) { assert r.0 == 6 && r.1 == "sum"; } }
}
