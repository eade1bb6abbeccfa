// pcheck-args: --search random --seed 1 --schedules 20
// Literals: ints, floats (1.5 and .5), strings with escapes, bools, null.
machine Main {
  start state S {
    entry {
      var f: float; var s: string; var m: machine; var b: bool;
      f = 1.5 + .5;
      assert f == 2.0;
      s = "tab\there \"quoted\" back\\slash";
      b = true && !false;
      m = null;
      assert b && m == null && s != "";
    }
  }
}
