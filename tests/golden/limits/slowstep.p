// pcheck-args: -S random -q --seed 1 --schedules 1 --max-steps 1
// Steps that each run a few million instructions (under the default
// --max-step-instructions): tests/limits.sh runs every search on it with
// --timeout 1 and expects each to end within seconds of it, as a search
// that looks at the clock only every so many steps, or an estimate that
// walks the model to its end, would not (issue 42: a --timeout of 60 ran
// 70 s).  Here: one execution of ten steps (--max-steps 1: fair 10).
event eTick;

machine Main {
  var n: int;
  start state Spin {
    entry { send this, eTick; }
    on eTick do {
      var i: int;
      i = 0;
      while (i < 300000) { i = i + 1; }
      n = n + 1;
      if (n < 1000000) { send this, eTick; }
    }
  }
}
