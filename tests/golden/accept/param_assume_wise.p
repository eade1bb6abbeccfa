// pcheck-args: --list-tests
// A param test with an assume condition and pairwise reduction.
param a : int;
param b : bool;
param c : bool;
machine Driver { start state S { } }
test param (a in [1, 2], b in [true, false], c in [true, false]) assume (a > 1 || b) (2 wise) tcW [main=Driver]: { Driver };
