// pcheck-args: --list-tests
// A file without test declarations has the implicit test Main.
machine Main { start state S { } }
