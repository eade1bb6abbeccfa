// expect: redeclaration of module 'M'
machine Main { start state S { } }
module M = { Main };
module M = { Main };
