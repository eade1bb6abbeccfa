// pcheck extension: an explorer declared in the model.
event eHint : int;
explorer Custom {
  var order: seq[machine];
  var bias: int;
  fun OnCreate(m: machine) { order += (sizeof(order), m); }
  fun OnHalt(m: machine) {
    var i: int;
    while (i < sizeof(order)) { if (order[i] == m) { order -= i; break; } i = i + 1; }
  }
  fun Next(enabled: set[machine]) : machine {
    var m: machine;
    foreach (m in order) { if (m in enabled) { return m; } }
    return choose(enabled);
  }
  fun Delay() { var head: machine; head = order[0]; order -= 0; order += (sizeof(order), head); }
  on eHint do (b: int) { bias = b; }
}
machine Main { start state S { entry { announce eHint, 2; } } }
