// pcheck-args: --list-tests
// Parametric test names as P writes them: a negative value is neg1, the
// first param varies fastest, and a t-wise test lists its cases in the
// order the greedy cover picks them (P's own listing of its ParamTest
// regression test, ExpectedParametricTests.txt, follows these rules).
machine Main {
  start state S { }
}
param lo : int;
param up : bool;
param k : int;
test param (lo in [-1, 0, 2], up in [true, false]) tcNeg [main=Main]: { Main };
test param (lo in [-3, 4], up in [true, false], k in [-7, -3]) assume (lo + k != 1) tcAssume [main=Main]: { Main };
test param (lo in [1, -2], up in [true, false], k in [5, -6]) (2 wise) tcWise [main=Main]: { Main };
