// pcheck-args: --search random --seed 1 --schedules 20
// A handler given as a named function taking the payload.
event eVal : int;
machine Main {
  var sum: int;
  start state S {
    entry { send this, eVal, 4; send this, eVal, 5; }
    on eVal do Add;
  }
  fun Add(x: int) { sum = sum + x; if (sum == 9) { print "sum reached"; } }
}
