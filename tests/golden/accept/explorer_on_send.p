// pcheck extension: an explorer with the OnSend hook, helper functions of
// its own and two hint events, one without a payload.
event eFavour : machine;
event eReset;
explorer LastReceiverFirst {
  var order: seq[machine];
  var favoured: machine;
  fun OnCreate(m: machine) { order += (sizeof(order), m); }
  fun OnHalt(m: machine) { var i: int; i = IndexOf(m); if (i >= 0) { order -= i; } }
  fun OnSend(sender: machine, receiver: machine, e: event) {
    var i: int;
    i = IndexOf(receiver);
    if (i > 0) { order -= i; order += (0, receiver); }
  }
  fun Next(enabled: set[machine]) : machine {
    var m: machine;
    if (favoured != null && favoured in enabled) { return favoured; }
    foreach (m in order) { if (m in enabled) { return m; } }
    return choose(enabled);
  }
  fun Delay() { var head: machine; if (sizeof(order) > 0) { head = order[0]; order -= 0; order += (sizeof(order), head); } }
  fun IndexOf(m: machine) : int {
    var i: int;
    while (i < sizeof(order)) { if (order[i] == m) { return i; } i = i + 1; }
    return -1;
  }
  on eFavour do (m: machine) { favoured = m; }
  on eReset do { favoured = null; }
}
machine Main { start state S { entry { announce eFavour, this; announce eReset; } } }
