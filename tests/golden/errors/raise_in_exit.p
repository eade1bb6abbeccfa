// expect: 'raise' is not allowed in an exit function
event e;
machine Main {
  start state S {
    exit { raise e; }
    on e do { }
  }
}
