// expect: not supported by pcheck
machine Main { start state S { } }
module A = { Main };
test tc [main=Main]: A refines A;
