// expect: not supported by pcheck
event e;
interface I() receives e;
machine Main { start state S { } }
