// expect: not supported by pcheck
axiom NoDup: true;
machine Main { start state S { } }
