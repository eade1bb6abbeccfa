// pcheck-args: --list-tests
// A param test: every combination of the values.
param nClients : int;
param fail : bool;
machine Driver { start state S { entry { assert nClients > 0; } } }
test param (nClients in [1, 2, 3], fail in [true, false]) tcP [main=Driver]: { Driver };
