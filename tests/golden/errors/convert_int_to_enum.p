// P converts with 'to' only to int, float and interfaces: not to an enum.
enum Level { LOW = 1, HIGH = 10 }
machine Main {
  start state S {
    entry {
      var l: Level;
      l = 10 to Level;
    }
  }
}
