// rr: round robin (SEARCH.md).  The order of machines is a queue: a new
// machine joins at the back, a halted one leaves, one that blocks in
// `receive` moves to the back.  Next runs the first enabled machine of the
// queue; a delay moves that machine to the back.
// pcheck's native twin of this explorer makes exactly the same choices
// (checked by `pcheck --explorer rr --explorer-twin-check`).
explorer rr {
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

  fun MoveToBack(m: machine) {
    var i: int;
    i = IndexOf(m);
    if (i >= 0) {
      order -= (i);
      order += (sizeof(order), m);
    }
  }

  fun OnCreate(m: machine) { order += (sizeof(order), m); }

  fun OnHalt(m: machine) {
    var i: int;
    i = IndexOf(m);
    if (i >= 0) { order -= (i); }
  }

  fun OnBlock(m: machine) { MoveToBack(m); }

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
    // Every machine is in the queue, so this is not reached; the smallest id.
    foreach (m in enabled) { last = m; break; }
    return last;
  }

  fun Delay() { MoveToBack(last); }
}
