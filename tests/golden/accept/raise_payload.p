// pcheck-args: --search random --seed 1 --schedules 20
// raise with a payload ends the handler and is handled at once.
event eUp : int;
machine Main {
  var got: int;
  start state S {
    entry { raise eUp, 9; }
    on eUp do (x: int) { got = x; assert got == 9; }
  }
}
