// expect: send passes 3 values, but the payload of event 'ePair' has 2 elements
event ePair : (int, int);
machine Main {
  start state S {
    entry { send this, ePair, 1, 2, 3; }
    on ePair do { }
  }
}
