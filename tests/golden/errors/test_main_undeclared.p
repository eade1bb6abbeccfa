// expect: undeclared machine 'Driver'
machine Main { start state S { } }
test tc [main=Driver]: { Main };
