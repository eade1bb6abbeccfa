// pcheck-args: --search random --seed 1 --schedules 20
// send with no payload, one value, and several values (a tuple).
event e0; event e1 : int; event e3 : (int, string, bool);
machine Main {
  start state S {
    entry { send this, e0; send this, e1, 5; send this, e3, 1, "two", true; }
    on e0 do { }
    on e1 do (x: int) { assert x == 5; }
    on e3 do (t: (int, string, bool)) { assert t.1 == "two" && t.2; }
  }
}
