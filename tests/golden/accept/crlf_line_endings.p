// pcheck-args: --search random --seed 1 --schedules 20
// CRLF line endings throughout; a diagnostic-free parse.
event eGo;
machine Main {
  var n: int;
  start state S {
    entry {
      n = 1;
      send this, eGo;
    }
    on eGo do { assert n == 1; }
  }
}
