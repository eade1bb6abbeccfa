// pcheck-args: --list-tests
// Several tests, selected by name or prefix.
machine Main { start state S { } }
test tcA1 [main=Main]: { Main };
test tcA2 [main=Main]: { Main };
test tcB [main=Main]: { Main };
