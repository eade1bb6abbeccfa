// An implementation declaration: its module must be closed; with a main machine it is a test case, as in P.
machine Main { start state S { } }
implementation impl [main=Main]: { Main };
