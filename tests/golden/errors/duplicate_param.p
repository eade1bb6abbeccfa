// expect: redeclaration of variable 'a'
fun F(a: int, a: bool) { }
machine Main { start state S { } }
