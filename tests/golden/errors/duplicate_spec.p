// expect: redeclaration of spec 'Watch'
event e;
spec Watch observes e { start state S { on e do { } } }
spec Watch observes e { start state S { ignore e; } }
machine Main { start state S { } }
