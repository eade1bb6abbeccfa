// expect: syntax error
event e
machine Main { start state S { } }
