// rtc: run to completion (SEARCH.md).  The order of machines is a priority
// list: the receiver of the most recently sent event moves to the front, as
// does a machine just created, so the schedule follows the causal chain of
// events.  Next runs the first enabled machine of the list; a delay moves
// that machine to the lowest position.  Halted machines leave the list.
// pcheck's native twin of this explorer makes exactly the same choices
// (checked by `pcheck --explorer rtc --explorer-twin-check`).
explorer rtc {
  var order: seq[machine];
  var last: machine;

  fun IndexOf(m: machine) : int {
    var i: int;
    i = 0;
    while (i < sizeof(order)) {
      if (order[i] == m) { return i; }
      i = i + 1;
    }
    return -1;
  }

  fun OnCreate(m: machine) { order += (0, m); }

  fun OnHalt(m: machine) {
    var i: int;
    i = IndexOf(m);
    if (i >= 0) { order -= (i); }
  }

  fun OnSend(sender: machine, receiver: machine, e: event) {
    var i: int;
    i = IndexOf(receiver);
    if (i >= 0) {
      order -= (i);
      order += (0, receiver);
    }
  }

  fun Next(enabled: set[machine]) : machine {
    var i: int;
    var m: machine;
    i = 0;
    while (i < sizeof(order)) {
      if (order[i] in enabled) {
        last = order[i];
        return last;
      }
      i = i + 1;
    }
    foreach (m in enabled) { last = m; break; }
    return last;
  }

  fun Delay() {
    var i: int;
    i = IndexOf(last);
    if (i >= 0) {
      order -= (i);
      order += (sizeof(order), last);
    }
  }
}
