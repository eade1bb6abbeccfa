// pcheck-args: --search random --seed 1 --schedules 20
// as: casts from any, data and machine to precise types.
machine Worker { start state S { } }
machine Main {
  start state S {
    entry {
      var a: any; var i: int; var m: machine; var w: Worker; var d: data; var s: seq[int];
      a = 5; i = a as int;
      m = new Worker(); w = m as Worker;
      s += (0, 1); d = s; s = d as seq[int];
      assert i == 5 && w == m && s[0] == 1;
    }
  }
}
