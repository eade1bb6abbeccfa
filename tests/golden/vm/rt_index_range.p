// pcheck-args: --search random --seed 1 --schedules 1 -v
// Runtime error: index_range.
event eX;
machine Main {
  start state Init {
    entry {
      var s: seq[int]; var x: int; 
      s += (0, 1); x = s[3];
    }
  }
}
