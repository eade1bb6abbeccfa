// expect: a goto-with function cannot change state (goto)
event e;
machine Main {
  start state S {
    on e goto T with Move;
  }
  state T { }
  state U { }
  fun Move() { goto U; }
}
