// pcheck-args: -S dfs --mem 1G -tc Impl
// An implementation with a main machine runs as a test case (P 3.1 too):
// its main machine is created first, its module is what runs.
event e;
machine Main { start state S { entry { send this, e; } on e do { assert false, "reached"; } } }
machine Other { start state S { entry { assert false, "other"; } } }
implementation Impl[main=Other]: { Main, Other };
