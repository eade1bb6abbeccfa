// pcheck-args: --search random --seed 1 --schedules 20
// An enum with explicit values; conversion to int (P has no conversion from int).
enum Code { OK = 0, NOT_FOUND = 404, ERROR = 500 }
machine Main {
  start state S {
    entry {
      var c: Code;
      var i: int;
      i = NOT_FOUND to int;
      assert i == 404;
      c = ERROR;
      assert (c to int) == 500;
    }
  }
}
