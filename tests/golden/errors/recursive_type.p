// expect: is defined in terms of itself
type T = seq[T];
machine Main { start state S { } }
