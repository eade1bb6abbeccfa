// pcheck-args: --search random --seed 1 --schedules 1 -v
// Runtime error: missing_key.
event eX;
machine Main {
  start state Init {
    entry {
      var m: map[int, int]; var x: int; 
      m[1] = 2; x = m[5];
    }
  }
}
