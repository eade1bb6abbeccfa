// expect: not supported by pcheck
machine Main { start state S { } }
module A = hidei Main in { Main };
