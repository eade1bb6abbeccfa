// expect: not supported by pcheck
machine Main { start state S { } }
invariant Always: true;
