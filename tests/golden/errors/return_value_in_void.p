// expect: has no return type, but 'return' gives a value
fun Log(s: string) {
  print s;
  return 1;
}
machine Main { start state S { } }
