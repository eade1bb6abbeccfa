// pcheck-args: --search random --seed 1 --schedules 20
// Tuples: one-element forms, nesting, access by position and name.
machine Main {
  start state S {
    entry {
      var t1: (int); var n1: (a: int); var nest: ((int, bool), (x: string));
      t1 = (7,);
      n1 = (a = 8,);
      nest = ((1, true), (x = "s",));
      assert t1.0 == 7 && n1.a == 8 && nest.0.1 && nest.1.x == "s";
    }
  }
}
