// expect: the global function 'Setup' cannot be used as an entry function
fun Setup() { }
machine Main {
  start state S {
    entry Setup;
  }
}
