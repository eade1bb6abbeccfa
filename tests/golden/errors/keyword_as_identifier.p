// expect: syntax error: 'choose' is a keyword, not a variable name
machine Main {
  var choose: int;
  start state S { }
}
