// pcheck-args: --search random --seed 1 --schedules 20
// receive inside a machine function called from a handler.
event eReply : int;
machine Main {
  start state S {
    entry { var r: int; send this, eReply, 6; r = Wait(); assert r == 6; }
  }
  fun Wait() : int {
    var got: int;
    receive { case eReply: (x: int) { got = x; } }
    return got;
  }
}
