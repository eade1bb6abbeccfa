// expect: 'to' converts to int, float or a machine type only, not to enum 'Level'
enum Level { LOW = 1, HIGH = 10 }
machine Main {
  start state S {
    entry {
      var l: Level;
      l = 10 to Level;
    }
  }
}
