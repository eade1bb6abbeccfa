// expect: redeclaration of enum member 'A' within one enum
enum E { A, B, A }
machine Main { start state S { } }
