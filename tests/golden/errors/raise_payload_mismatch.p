// expect: payload of type 'bool' does not match event 'eNum'
event eNum : int;
machine Main {
  start state S {
    entry { raise eNum, true; }
    on eNum do { }
  }
}
