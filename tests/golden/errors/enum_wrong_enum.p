// expect: cannot assign 'Light' to a variable of type 'Color'
enum Color { RED, GREEN }
enum Light { AMBER, BLUE }
machine Main {
  start state S {
    entry {
      var c: Color;
      c = AMBER;
    }
  }
}
