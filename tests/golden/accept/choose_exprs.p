// pcheck-args: --search random --seed 1 --schedules 20
// choose and $ inside larger expressions: indexes, arguments, conditions,
// loop bounds, payloads; choose over keys(m) and values(m).
event eVal : int;
fun Id(x: int) : int { return x; }
machine Main {
  start state S {
    entry {
      var s: seq[string]; var m: map[int, string]; var n: int; var i: int;
      s += (0, "a"); s += (1, "b"); s += (2, "c");
      m[10] = "x"; m[20] = "y";
      assert s[choose(sizeof(s))] in s;
      assert Id(choose(4)) < 4 && choose(1) == 0;
      n = choose(3) + choose(3) * 10;
      assert n % 10 < 3 && n / 10 < 3;
      while (i < choose(5)) { i = i + 1; }
      assert i < 5;
      assert choose(keys(m)) in m && choose(values(m)) in values(m);
      if ($ || $$ || choose()) { send this, eVal, choose(2); } else { send this, eVal, 0; }
    }
    on eVal do (v: int) { assert v == 0 || v == 1; }
  }
}
