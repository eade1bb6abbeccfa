// An explorer must say which machine runs next and how to delay.
explorer Lazy {
  var n: int;
  fun OnCreate(m: machine) { n = n + 1; }
}
machine Main { start state S { } }
