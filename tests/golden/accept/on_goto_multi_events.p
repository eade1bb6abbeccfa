// pcheck-args: --search random --seed 1 --schedules 20
// Several events in one on-goto, defer and ignore.
event e1; event e2; event eLate1; event eLate2; event eNoise1; event eNoise2;
machine Main {
  var late: int;
  start state A {
    entry {
      send this, eLate1; send this, eNoise1; send this, eLate2; send this, eNoise2;
      if ($) { send this, e1; } else { send this, e2; }
    }
    defer eLate1, eLate2;
    ignore eNoise1, eNoise2;
    on e1, e2 goto B;
  }
  state B {
    on eLate1, eLate2 do { late = late + 1; }
    ignore eNoise1, eNoise2;
  }
}
