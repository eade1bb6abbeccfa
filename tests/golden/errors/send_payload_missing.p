// expect: missing payload
event eNum : int;
machine Main {
  start state S {
    entry {
      send this, eNum;
    }
  }
}
