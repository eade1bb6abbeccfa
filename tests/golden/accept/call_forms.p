// pcheck-args: --search random --seed 1 --schedules 20
// Calls as arguments, in conditions, with tuple and collection arguments,
// with new as an argument, and field access on a returned tuple.
machine Worker { start state S { } }
fun Pair(a: int, b: string) : (n: int, s: string) { return (n = a, s = b); }
fun Sum(xs: seq[int]) : int { var x: int; var t: int; foreach (x in xs) { t = t + x; } return t; }
fun IsSet(m: machine) : bool { return m != null; }
fun Two() : seq[int] { var s: seq[int]; s += (0, 1); s += (1, 1); return s; }
fun Swap(p: (int, int)) : (int, int) { return (p.1, p.0); }
machine Main {
  start state S {
    entry {
      assert Pair(1, "x").n == 1 && Pair(2, "y").s == "y";
      assert Sum(Two()) == 2;
      assert Sum(Two()) + Pair(Sum(Two()), "z").n == 4;
      assert IsSet(new Worker());
      assert Swap((1, 2)).0 == 2 && Swap(Swap((3, 4))) == (3, 4);
      if (IsSet(this) && Sum(Two()) > 1) { print "calls compose"; }
    }
  }
}
