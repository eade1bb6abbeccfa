// pcheck-args: --search random --seed 1 --schedules 1 -v
// Runtime error: send_null.
event eX;
machine Main {
  start state Init {
    entry {
      var m: machine; 
      send m, eX;
    }
  }
}
