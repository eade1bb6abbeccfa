// expect: a goto-with function cannot raise an event
event e; event eOther;
machine Main {
  start state S {
    on e goto T with { raise eOther; }
  }
  state T { on eOther do { } }
}
