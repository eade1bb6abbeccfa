// expect: not supported by pcheck
init-condition Empty: true;
machine Main { start state S { } }
