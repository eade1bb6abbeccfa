// expect: redeclaration of event 'eA'
event eA;
event eA : int;
machine Main { start state S { } }
