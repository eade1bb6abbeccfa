// expect: integer literals are P's 32-bit ints: 2147483648 is out of range
machine Main {
  start state S {
    entry {
      var x: int;
      x = 2147483648;
    }
  }
}
