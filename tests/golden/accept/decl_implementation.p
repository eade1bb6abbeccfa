// An implementation declaration: its module must be closed; the checker runs tests, not implementations.
machine Main { start state S { } }
implementation impl [main=Main]: { Main };
