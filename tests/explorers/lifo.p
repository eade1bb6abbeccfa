// The explorer of doc/explorers.md (newest machine first), loaded with
// --explorer tests/explorers/lifo.p:Lifo.
explorer Lifo {
  var order: seq[machine];
  var last: machine;

  fun OnCreate(m: machine) { order += (0, m); }       // newest first
  fun Next(enabled: set[machine]) : machine {
    var i: int;
    var m: machine;
    while (i < sizeof(order)) {
      if (order[i] in enabled) { last = order[i]; return last; }
      i = i + 1;
    }
    foreach (m in enabled) { last = m; break; }
    return last;
  }
  fun Delay() {                                       // the chosen one goes last
    var i: int;
    while (i < sizeof(order)) {
      if (order[i] == last) { order -= (i); order += (sizeof(order), last); return; }
      i = i + 1;
    }
  }
}
