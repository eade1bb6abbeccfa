// expect: redeclaration of type 'tId'
type tId = int;
type tId = string;
machine Main { start state S { } }
