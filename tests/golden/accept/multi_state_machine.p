// pcheck-args: --search random --seed 1 --schedules 20
// Several states and transitions with and without payloads.
event eNext; event eJump : int;
machine Main {
  var visits: seq[string];
  start state One { entry { visits += (sizeof(visits), "one"); send this, eNext; } on eNext goto Two; }
  state Two { entry { visits += (sizeof(visits), "two"); send this, eJump, 3; } on eJump goto Three; }
  state Three { entry (x: int) { visits += (sizeof(visits), "three"); assert x == 3 && sizeof(visits) == 3; } }
}
