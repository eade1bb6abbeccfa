// pcheck-args: --search random --seed 1 --schedules 1 -v
// Runtime error: choose_empty.
event eX;
machine Main {
  start state Init {
    entry {
      var s: set[int]; var x: int; 
      x = choose(s);
    }
  }
}
