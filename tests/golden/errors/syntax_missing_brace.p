// expect: syntax error: the file ends inside machine 'Main'
machine Main {
  start state S {
    entry { }
  }
