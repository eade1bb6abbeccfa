// expect: (3 wise) needs at least 3 params; the test has 2
param a : int;
param b : bool;
machine Main { start state S { } }
test param (a in [1, 2], b in [true, false]) (3 wise) tc [main=Main]: { Main };
