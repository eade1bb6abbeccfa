// expect: syntax error: 'to' is a keyword, not a parameter name
fun Forward(from: machine, to: machine) { }
machine Main { start state S { } }
