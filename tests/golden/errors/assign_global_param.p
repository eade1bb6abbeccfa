// expect: cannot assign to param 'n'
param n : int;
machine Main {
  start state S {
    entry { n = 3; }
  }
}
