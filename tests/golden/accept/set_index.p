// pcheck-args: --search random --seed 1 --schedules 1 -v
// P reads the i-th element of a set with s[i], 0 <= i < sizeof(s).  pcheck
// orders a set's elements canonically (doc/vm.md: a function of the set's
// value, whatever order they were added in); the last read is out of
// range, a runtime error with its location.
machine Main {
  var s: set[int];
  var t: set[int];
  var i: int;
  start state Init {
    entry {
      s += (30); s += (10); s += (20);
      t += (20); t += (30); t += (10);
      i = 0;
      while (i < sizeof(s)) {
        print format("s[{0}] = {1}", i, s[i]);
        assert s[i] == t[i], "equal sets give equal s[i]";
        i = i + 1;
      }
      s -= (10);
      assert s[0] == 20;
      print format("{0}", s[sizeof(s)]);
    }
  }
}
