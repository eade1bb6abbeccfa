// expect: param 'n' is given the same value twice
// P rejects a param test whose list of values repeats one (P 3.1: "Duplicate
// integer value '2' found"): each value is one test case.
param n : int;
param flag : bool;
enum Colour { RED, GREEN }
param c : Colour;
machine Main { start state S { } }
test param (n in [1, 2, -2, 2], flag in [true, false], c in [RED, GREEN]) ok [main=Main]: { Main };
test param (n in [-1, -1]) negative [main=Main]: { Main };
test param (c in [GREEN, RED, GREEN]) colours [main=Main]: { Main };
