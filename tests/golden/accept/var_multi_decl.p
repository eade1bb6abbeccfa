// pcheck-args: --search random --seed 1 --schedules 20
// One var declaration naming several variables, in a machine and in a body.
machine Main {
  var a, b, c: int;
  var names, more: seq[string];
  start state S {
    entry {
      var x, y: bool;
      var p, q: (int, int);
      a = 1; b = 2; c = a + b;
      x = true; y = !x;
      p = (1, 2); q = p;
      names += (0, "n"); more = names;
      assert c == 3 && x && !y && q.1 == 2 && sizeof(more) == 1;
    }
  }
}
