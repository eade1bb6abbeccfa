// pcheck-args: --search random --seed 1 --schedules 1
// choose over a collection of more than 10000 elements is P's runtime
// error, at the choose.
machine Main {
  start state S {
    entry {
      var s: seq[int];
      var i: int;
      while (i < 10001) { s += (i, i); i = i + 1; }
      i = choose(s);
    }
  }
}
