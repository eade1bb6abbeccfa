// expect: not supported by pcheck
machine Main { start state S { } }
module A = rename Main to M2 in { Main };
