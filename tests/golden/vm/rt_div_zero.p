// pcheck-args: --search random --seed 1 --schedules 1 -v
// Runtime error: div_zero.
event eX;
machine Main {
  start state Init {
    entry {
      var x: int; var y: int; 
      x = 0; y = 10 / x;
    }
  }
}
