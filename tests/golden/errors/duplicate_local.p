// expect: redeclaration of variable 'y'
machine Main {
  start state S {
    entry {
      var y: int;
      var y: int;
    }
  }
}
