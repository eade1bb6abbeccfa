// prr: probabilistic round robin (SEARCH.md).  As rr, but a new machine
// joins the queue at a random position: choose() in an explorer draws from
// the explorer's own seeded random numbers (seeded from --seed; in ss, one
// seed per sample), so every run with the same seed is the same.  Still
// sound: a delay moves the chosen machine to the back.
// pcheck's native twin of this explorer makes exactly the same choices
// (checked by `pcheck --explorer prr --explorer-twin-check`).
explorer prr {
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

  fun OnCreate(m: machine) { order += (choose(sizeof(order) + 1), m); }

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
    foreach (m in enabled) { last = m; break; }
    return last;
  }

  fun Delay() { MoveToBack(last); }
}
