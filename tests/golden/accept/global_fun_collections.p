// pcheck-args: --search random --seed 1 --schedules 20
// Global functions over maps, sets and named tuples; functions calling
// functions; a function returning a collection built in a loop.
type tStats = (count: int, total: int, names: set[string]);
fun Range(n: int) : seq[int] { var s: seq[int]; var i: int; while (i < n) { s += (i, i); i = i + 1; } return s; }
fun Invert(m: map[string, int]) : map[int, string] {
  var r: map[int, string]; var k: string;
  foreach (k in keys(m)) { r[m[k]] = k; }
  return r;
}
fun Stats(m: map[string, int]) : tStats {
  var st: tStats; var k: string;
  foreach (k in keys(m)) { st.count = st.count + 1; st.total = st.total + m[k]; st.names += (k); }
  return st;
}
fun Union(a: set[string], b: set[string]) : set[string] { var x: string; foreach (x in b) { a += (x); } return a; }
machine Main {
  start state S {
    entry {
      var m: map[string, int]; var st: tStats; var u: set[string];
      m["one"] = 1; m["two"] = 2;
      assert sizeof(Range(4)) == 4 && Range(4)[3] == 3 && sizeof(Range(0)) == 0;
      assert Invert(m)[2] == "two";
      st = Stats(m);
      assert st.count == 2 && st.total == 3 && "one" in st.names;
      u = Union(st.names, Stats(m).names);
      assert u == st.names && sizeof(Union(u, default(set[string]))) == 2;
    }
  }
}
