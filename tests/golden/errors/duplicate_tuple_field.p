// expect: named tuple type has two fields named 'a'
type tPair = (a: int, a: bool);
machine Main { start state S { } }
