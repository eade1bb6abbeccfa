// An unsound explorer: its Delay changes nothing, so after one delay it
// chooses the same machine again and the other enabled machine is never
// reached.  pcheck must stop and say so.
event ePing;

machine Pinger {
  start state Init {
    entry (m: Main) { send m, ePing; }
  }
}

machine Main {
  start state Init {
    entry {
      new Pinger(this);
      new Pinger(this);
    }
    on ePing do { }
  }
}

explorer Stuck {
  fun Next(enabled: set[machine]) : machine {
    var m: machine;
    var r: machine;
    foreach (m in enabled) { r = m; break; }
    return r;
  }
  fun Delay() { }
}

explorer BadNext {
  fun Next(enabled: set[machine]) : machine {
    var r: machine;
    return r;
  }
  fun Delay() { }
}

explorer Crashes {
  var order: seq[machine];
  fun Next(enabled: set[machine]) : machine { return order[5]; }
  fun Delay() { }
}
