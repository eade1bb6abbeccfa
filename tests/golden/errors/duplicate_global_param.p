// expect: redeclaration of param 'n'
param n : int;
param n : int;
machine Main { start state S { } }
