// expect: not supported by pcheck
event e;
eventset Es = { e };
machine Main { start state S { } }
