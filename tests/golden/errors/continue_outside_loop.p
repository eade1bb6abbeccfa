// expect: 'continue' outside a loop
machine Main {
  start state S {
    entry {
      continue;
    }
  }
}
