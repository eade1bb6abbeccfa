// expect: not supported by pcheck
Theorem T { }
machine Main { start state S { } }
