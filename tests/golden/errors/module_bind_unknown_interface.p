// A binding names an interface that is not declared (P: could not find interface).
machine Main { start state S { } }
module A = { Main -> Other };
