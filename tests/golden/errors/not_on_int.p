// expect: invalid operand to '!' ('int')
machine Main {
  start state S {
    entry {
      var b: bool;
      b = !1;
    }
  }
}
