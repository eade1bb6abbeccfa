// expect: undeclared param 'n'
machine Main { start state S { } }
test param (n in [1, 2]) tc [main=Main]: { Main };
