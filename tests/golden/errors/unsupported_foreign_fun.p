// expect: not supported by pcheck
fun Foreign(x: int);
machine Main { start state S { } }
