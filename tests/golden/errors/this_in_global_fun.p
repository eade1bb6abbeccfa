// expect: 'this' used outside a machine
fun Me() : machine {
  return this;
}
machine Main { start state S { } }
