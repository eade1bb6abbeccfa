// expect: the global function 'Handle' cannot be used as a handler
event e;
fun Handle() { }
machine Main {
  start state S {
    on e do Handle;
  }
}
