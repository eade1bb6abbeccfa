// pcheck-args: --search random --seed 1 --schedules 1 -v
// Runtime error: failed_as.
event eX;
machine Main {
  start state Init {
    entry {
      var a: any; var i: int; 
      a = "text"; i = a as int;
    }
  }
}
