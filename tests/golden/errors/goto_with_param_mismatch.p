// expect: handler parameter of type 'string' does not accept the payload 'int' of event 'eNum'
event eNum : int;
machine Main {
  start state S {
    on eNum goto T with (s: string) { }
  }
  state T { }
}
