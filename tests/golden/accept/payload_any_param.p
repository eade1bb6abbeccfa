// pcheck-args: --search random --seed 1 --schedules 20
// A handler parameter of type any accepts every payload; null for none.
event eX : int; event eY;
machine Main {
  var n: int;
  start state S {
    entry { send this, eX, 1; send this, eY; }
    on eX, eY do (p: any) { n = n + 1; }
  }
}
