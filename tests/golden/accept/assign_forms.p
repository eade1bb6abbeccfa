// pcheck-args: --search random --seed 1 --schedules 20
// Every assignment form: variable, field, tuple element, index.
type tRec = (name: string, pos: (int, int));
machine Main {
  start state S {
    entry {
      var r: tRec;
      var s: seq[tRec];
      var m: map[string, seq[int]];
      r.name = "a";
      r.pos.0 = 1;
      r.pos.1 = 2;
      s += (0, r);
      s[0].pos.1 = 5;
      m["k"] = default(seq[int]);
      m["k"] += (0, 7);
      m["k"][0] = 8;
      assert r.pos.1 == 2 && s[0].pos.1 == 5 && m["k"][0] == 8;
    }
  }
}
