// expect: undeclared event 'eGone' in the observes list
event e;
spec Watch observes e, eGone { start state S { on e do { } } }
machine Main { start state S { } }
