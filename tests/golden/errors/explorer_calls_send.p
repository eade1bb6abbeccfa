// An explorer cannot act on the model, not even through a function.
event ePoke;
fun Poke(m: machine) { send m, ePoke; }
explorer Meddler {
  fun OnCreate(m: machine) { Poke(m); }
  fun Next(enabled: set[machine]) : machine {
    var m: machine;
    foreach (m in enabled) { return m; }
    return m;
  }
  fun Delay() { }
}
machine Main { start state S { ignore ePoke; } }
