// expect: redeclaration of machine 'Worker'
machine Worker { start state S { } }
machine Worker { start state T { } }
machine Main { start state S { } }
