// expect: not supported by pcheck
event e;
machine Main { start state S { } }
module A = hidee e in { Main };
