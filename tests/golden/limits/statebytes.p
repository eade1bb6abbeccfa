// pcheck-args: -S random --seed 3 --schedules 5 -q --max-state-bytes 2K
// A map that grows with every step: the State would pass
// --max-state-bytes (bounded, with the way there).
event eNext;

machine Main {
  var m: map[int, string];
  var i: int;
  start state Run {
    entry { send this, eNext; }
    on eNext do {
      m[i] = "a value that takes some room in the State";
      i = i + 1;
      send this, eNext;
    }
  }
}
