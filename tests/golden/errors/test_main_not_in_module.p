// expect: the main machine 'Driver' is not in the test's module
machine Driver { start state S { } }
machine Main { start state S { } }
test tc [main=Driver]: { Main };
