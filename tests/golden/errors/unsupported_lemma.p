// expect: not supported by pcheck
Lemma L { invariant A: true; }
machine Main { start state S { } }
