// expect: numbers some of its members but not all
enum E { A, B = 2 }
machine Main { start state S { } }
