// pcheck-args: --search random --seed 1 --schedules 20
// Identifiers that start with or contain keywords are plain identifiers.
event sendCount : int;
type asPair = (into: int, tomato: int);
machine Main {
  var newest: int;
  var index: int;
  var states: seq[int];
  var formatted: string;
  var thisOne: machine;
  var nullable: asPair;
  var halted: bool;
  var _under_score1: int;
  var ifx, whilex, entryCount, foreachx, receiver, defaults, keys2, sizeofx: int;
  start state S {
    entry {
      newest = 1; index = 2; states += (0, 3); formatted = "f"; thisOne = this;
      nullable = (into = 4, tomato = 5); halted = false; _under_score1 = 6;
      ifx = 1; whilex = 1; entryCount = 1; foreachx = 1; receiver = 1; defaults = 1; keys2 = 1; sizeofx = 1;
      send this, sendCount, newest + index;
    }
    on sendCount do (inx: int) { assert inx == 3 && nullable.tomato == 5 && !halted; }
  }
}
