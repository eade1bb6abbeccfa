// expect: an assume condition must be 'bool', not 'int'
param n : int;
machine Main { start state S { } }
test param (n in [1, 2]) assume (n + 1) tc [main=Main]: { Main };
