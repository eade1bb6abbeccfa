// expect: event 'eA' appears in two cases of one receive
event eA; event eB;
machine Main {
  start state S {
    entry {
      receive {
        case eA: { }
        case eB, eA: { }
      }
    }
  }
}
