// A custom explorer that reorders machines when the model announces an
// event.  Main creates A then B and then announces eReverse; the bug needs
// B's hello to reach the checker before A's.  Under rr (creation order)
// that takes one delay; the explorer Reverser schedules in creation order
// until eReverse, then in reverse order, so it finds the bug with none.
event eHello : int;
event eReverse;

machine Checker {
  start state Wait {
    on eHello do (n: int) {
      assert n != 2, "B said hello first";
      goto Done;
    }
  }
  state Done { ignore eHello; }
}

machine Greeter {
  start state Init {
    entry (p: (c: Checker, n: int)) { send p.c, eHello, p.n; }
  }
}

machine Main {
  start state Init {
    entry {
      var c: Checker;
      c = new Checker();
      new Greeter((c = c, n = 1));
      new Greeter((c = c, n = 2));
      announce eReverse;
    }
  }
}

explorer Reverser {
  var order: seq[machine];
  var last: machine;
  var reversed: bool;

  fun OnCreate(m: machine) { order += (sizeof(order), m); }

  fun Next(enabled: set[machine]) : machine {
    var i: int;
    var m: machine;
    i = 0;
    while (i < sizeof(order)) {
      if (order[i] in enabled) { last = order[i]; return last; }
      i = i + 1;
    }
    foreach (m in enabled) { last = m; break; }
    return last;
  }

  fun Delay() {
    var i: int;
    i = 0;
    while (i < sizeof(order)) {
      if (order[i] == last) { order -= (i); order += (sizeof(order), last); return; }
      i = i + 1;
    }
  }

  on eReverse do {
    var r: seq[machine];
    var m: machine;
    foreach (m in order) { r += (0, m); }
    order = r;
    reversed = true;
  }
}
