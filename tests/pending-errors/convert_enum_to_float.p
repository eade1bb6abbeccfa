// expect: cannot convert enum 'Level' to 'float' (only to int)
enum Level { LOW = 1, HIGH = 10 }
machine Main {
  start state S {
    entry {
      var f: float;
      f = HIGH to float;
    }
  }
}
