// expect: the payload 'int' of event 'eNum' does not match the entry of state 'T'
event eNum : int;
machine Main {
  start state S {
    on eNum goto T;
  }
  state T { entry (s: string) { } }
}
