// expect: not supported by pcheck
machine Main { start state S { } }
machine B { start state S { } }
module A = compose { Main }, { B };
