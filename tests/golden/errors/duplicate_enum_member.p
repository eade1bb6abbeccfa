// expect: redeclaration of enum member 'RED'
enum Color { RED, GREEN }
enum Light { RED, AMBER }
machine Main { start state S { } }
