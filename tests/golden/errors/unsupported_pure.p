// expect: not supported by pcheck
pure Size(x: int) : int = x;
machine Main { start state S { } }
