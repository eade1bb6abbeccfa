// pcheck-args: --search random --seed 1 --schedules 20
// An enum with explicit values; conversions both ways.
enum Code { OK = 0, NOT_FOUND = 404, ERROR = 500 }
machine Main {
  start state S {
    entry {
      var c: Code;
      var i: int;
      i = NOT_FOUND to int;
      assert i == 404;
      c = 500 to Code;
      assert c == ERROR;
    }
  }
}
