// pcheck-args: --search random --seed 1 --schedules 20
// to: int and float, enum to int (P converts to int, float and interfaces only).
enum Level { LOW = 1, HIGH = 10 }
machine Main {
  start state S {
    entry {
      var f: float; var i: int; var l: Level;
      f = 3 to float; i = 3.9 to int; l = HIGH;
      assert f == 3.0 && i == 3 && l == HIGH && (LOW to int) == 1 && (HIGH to int) == 10;
    }
  }
}
