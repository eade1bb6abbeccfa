// expect: case parameter of type 'string' does not accept the payload 'int' of event 'eNum'
event eNum : int;
machine Main {
  start state S {
    entry {
      receive { case eNum: (s: string) { } }
    }
  }
}
