// pcheck-args: --list-tests
// Param tests: several parameters with pairwise reduction, without and
// with an assume; parameters are read by machines.
param nNodes : int;
param nRounds : int;
param lossy : bool;
param fast : bool;
machine Node { start state S { entry { assert nRounds > 0 || lossy; } } }
machine Driver {
  start state S { entry { var i: int; while (i < nNodes) { new Node(); i = i + 1; } if (fast) { print "fast"; } } }
}
test param (nNodes in [1, 2, 3], nRounds in [1, 2], lossy in [true, false], fast in [true, false]) (2 wise) tcPairs [main=Driver]: { Driver, Node };
test param (nNodes in [2, 4], lossy in [false, true]) assume (nNodes > 2 || !lossy) tcAssume [main=Driver]: { Driver, Node };
