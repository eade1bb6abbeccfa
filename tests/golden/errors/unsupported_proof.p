// expect: not supported by pcheck
Proof { prove A; }
machine Main { start state S { } }
