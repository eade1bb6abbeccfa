// expect: value of type 'bool' for param 'n' of type 'int'
param n : int;
machine Main { start state S { } }
test param (n in [1, true]) tc [main=Main]: { Main };
