// pcheck-args: --search random --seed 1 --schedules 20
// Global functions with parameters, locals and return values.
fun Add(a: int, b: int) : int { return a + b; }
fun Max(s: seq[int]) : int {
  var best: int;
  var x: int;
  best = s[0];
  foreach (x in s) { if (x > best) { best = x; } }
  return best;
}
fun Log(msg: string) { print msg; }
machine Main {
  start state S {
    entry {
      var s: seq[int];
      s += (0, 3); s += (1, 9); s += (2, 4);
      assert Add(2, 3) == 5;
      assert Max(s) == 9;
      Log("done");
    }
  }
}
