// expect: the event of 'send' must be an event, not 'string'
machine Main {
  start state S {
    entry {
      send this, "eHello";
    }
  }
}
