// expect: 'break' outside a loop
machine Main {
  start state S {
    entry {
      break;
    }
  }
}
