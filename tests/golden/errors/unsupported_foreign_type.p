// expect: not supported by pcheck
type tForeign;
machine Main { start state S { } }
