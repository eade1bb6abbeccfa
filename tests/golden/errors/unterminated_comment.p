// expect: unterminated comment
machine Main { start state S { } }
/* never closed
