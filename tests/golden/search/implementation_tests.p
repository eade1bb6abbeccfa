// pcheck-args: --list-tests
// P runs each implementation that names a main machine as a test case,
// listed before the tests (P 3.1's --list-tests: B1, Z1, A1); an
// implementation without one runs nothing, and with any of them there is
// no implicit test of Main.
event e;
machine Main { start state S { entry { send this, e; } on e do { assert false, "reached"; } } }
machine Other { start state S { entry { assert false, "other"; } } }
module M = { Main, Other };
test Z1 [main=Main]: M;
implementation B1[main=Other]: M;
implementation NoMain: M;
test A1 [main=Main]: M;
