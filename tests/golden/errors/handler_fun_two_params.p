// expect: a handler function takes at most one parameter; 'Handle' takes 2
event e : int;
machine Main {
  start state S {
    on e do Handle;
  }
  fun Handle(a: int, b: int) { }
}
