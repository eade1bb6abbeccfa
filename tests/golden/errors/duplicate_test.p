// expect: redeclaration of test 'tc'
machine Main { start state S { } }
test tc [main=Main]: { Main };
test tc [main=Main]: { Main };
