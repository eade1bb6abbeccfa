// expect: undeclared module 'Servers'
machine Main { start state S { } }
test tc [main=Main]: (union Servers, { Main });
