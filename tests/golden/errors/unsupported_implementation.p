// expect: not supported by pcheck
machine Main { start state S { } }
implementation impl [main=Main]: { Main };
