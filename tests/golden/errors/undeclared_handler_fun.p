// expect: undeclared function 'Handle'
event e;
machine Main {
  start state S {
    on e do Handle;
  }
}
