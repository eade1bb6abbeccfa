// expect: handler parameter of type 'string' does not accept the payload of event 'eNum'
event eNum : int;
machine Main {
  start state S {
    on eNum do (s: string) { }
  }
}
