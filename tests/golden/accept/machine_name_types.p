// pcheck-args: --search random --seed 1 --schedules 20
// Machine names as types; machine variables hold ids.
event eHello : Main;
machine Peer {
  start state S { on eHello do (m: Main) { assert (m as machine) != null; } }
}
machine Main {
  var p: Peer;
  start state S { entry { p = new Peer(); send p, eHello, this; } }
}
