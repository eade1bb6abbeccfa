// expect: receive case without a parameter for event 'eNum', which carries an 'int' payload
event eNum : int;
machine Main {
  start state S {
    entry {
      receive { case eNum: { } }
    }
  }
}
