// expect: payload of type 'string' does not match event 'eNum'
event eNum : int;
machine Main {
  start state S {
    entry { announce eNum, "one"; }
  }
}
