// pcheck-args: --search random --seed 1 --schedules 20
// && and || evaluate their right side only when needed; ! and == on
// bools; boolean variables as conditions.
machine Main {
  var calls: int;
  start state S {
    entry {
      var s: seq[int]; var i: int; var m: map[int, int]; var t: bool; var f: bool;
      s += (0, 1);
      i = 5;
      assert !(i < sizeof(s) && s[i] == 1);
      assert i >= sizeof(s) || s[i] == 1;
      assert !(3 in m) || m[3] == 0;
      assert !(false && Touch()) && (true || Touch()) && calls == 0;
      assert (true && Touch()) && calls == 1;
      t = true;
      assert t == !f && t != f && (t || f) && !(t && f);
      if (f) { assert false; } else if (!t) { assert false; }
      while (f) { assert false; }
    }
  }
  fun Touch() : bool { calls = calls + 1; return true; }
}
