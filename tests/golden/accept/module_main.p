// pcheck-args: --list-tests
// A test whose module uses main ... in.
machine A { start state S { } }
machine B { start state S { } }
module Both = { A, B };
test tcMain [main=A]: (main A in Both);
