// pcheck-args: --search random --seed 1 --schedules 20
// Events with and without payloads of several types.
event eNone;
event eInt : int;
event eTuple : (int, bool);
event eNamed : (id: int, name: string);
event eCard : int;
event eCard2;
machine Main {
  start state S {
    entry {
      send this, eNone;
      send this, eInt, 1;
      send this, eTuple, (2, true);
      send this, eNamed, (id = 3, name = "x");
    }
    on eNone, eCard2 do { }
    on eInt, eCard do (x: int) { assert x == 1; }
    on eTuple do (t: (int, bool)) { assert t.0 == 2 && t.1; }
    on eNamed do (n: (id: int, name: string)) { assert n.id == 3 && n.name == "x"; }
  }
}
