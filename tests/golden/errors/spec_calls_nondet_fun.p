// expect: a spec cannot call 'Coin', which uses '$'
event e;
fun Coin() : bool { return $; }
spec Watch observes e {
  var b: bool;
  start state S {
    on e do { b = Coin(); }
  }
}
machine Main { start state S { } }
