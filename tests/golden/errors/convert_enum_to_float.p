// P converts an enum to int only, not to float.
enum Level { LOW = 1, HIGH = 10 }
machine Main {
  start state S {
    entry {
      var f: float;
      f = HIGH to float;
    }
  }
}
