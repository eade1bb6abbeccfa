// expect: payload of type 'string' does not match the entry of state 'T'
machine Main {
  start state S { entry { goto T, "x"; } }
  state T { entry (n: int) { } }
}
