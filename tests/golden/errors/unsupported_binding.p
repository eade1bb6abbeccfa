// expect: not supported by pcheck
machine Main { start state S { } }
module A = { Main -> Other };
