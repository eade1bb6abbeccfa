// expect: redeclaration of function 'F'
fun F() { }
fun F() { }
machine Main { start state S { } }
