// pcheck-args: --search random --seed 1 --schedules 20
// Assignment, arguments, return values and payloads copy: changing one
// copy never changes another.
event eList : seq[int];
fun Grow(s: seq[int]) : seq[int] { s += (sizeof(s), 99); return s; }
machine Main {
  var kept: seq[int];
  start state S {
    entry {
      var a: seq[int]; var b: seq[int]; var m: map[int, seq[int]]; var t: (x: seq[int], y: int); var u: (x: seq[int], y: int);
      a += (0, 1);
      b = a;
      b += (1, 2);
      assert sizeof(a) == 1 && sizeof(b) == 2;
      m[0] = a;
      a[0] = 5;
      assert m[0][0] == 1;
      t = (x = a, y = 1);
      u = t;
      u.x[0] = 7; u.y = 2;
      assert t.x[0] == 5 && t.y == 1;
      b = Grow(a);
      assert sizeof(a) == 1 && sizeof(b) == 2;
      kept = a;
      send this, eList, a;
      a[0] = 6;
    }
    on eList do (l: seq[int]) { l[0] = 0; assert kept[0] == 5; }
  }
}
