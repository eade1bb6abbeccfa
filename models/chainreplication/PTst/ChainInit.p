/* A custom explorer for chain replication (the case study of the delaying
   explorers paper): during initialisation it runs the servers before
   everything else and the master and the fault injector last, so that the
   chain is up before anything fails; once the master announces eInitDone
   it moves the master and the fault injector to the front, so that
   failures come early, one right after the other, while the master is
   still busy with the first: the schedule under which two neighbouring
   servers fail during one reconfiguration (tcBugNeighbours).

   The explorer cannot see machine types: each machine announces its role
   (eRole) in its start entry. Until it does, a machine ranks after the
   servers and before the master and the injector.

   Schedule: the first enabled machine of `order`. Delay: the machine just
   chosen goes to the end of `order` (so repeated delays at one state reach
   every enabled machine). */
explorer ChainInit {
  var order: seq[machine];
  var roles: map[machine, tRole];
  var initDone: bool;
  var last: machine;

  fun IndexOf(m: machine) : int {
    var i: int;
    while (i < sizeof(order)) {
      if (order[i] == m) { return i; }
      i = i + 1;
    }
    return -1;
  }

  fun Rank(m: machine) : int {
    var r: tRole;
    if (!(m in roles)) { return 2; }
    r = roles[m];
    if (!initDone) {
      if (r == ROLE_SERVER) { return 0; }
      if (r == ROLE_MASTER || r == ROLE_INJECTOR) { return 3; }
      return 1;
    }
    if (r == ROLE_MASTER || r == ROLE_INJECTOR) { return 0; }
    if (r == ROLE_SERVER) { return 1; }
    return 2;
  }

  // Stable sort of `order` by rank (insertion sort).
  fun Arrange() {
    var sorted: seq[machine];
    var m: machine;
    var i: int;
    foreach (m in order) {
      i = sizeof(sorted);
      while (i > 0 && Rank(sorted[i - 1]) > Rank(m)) { i = i - 1; }
      sorted += (i, m);
    }
    order = sorted;
  }

  fun OnCreate(m: machine) {
    order += (sizeof(order), m);
    Arrange();
  }

  fun OnHalt(m: machine) {
    var i: int;
    i = IndexOf(m);
    if (i >= 0) { order -= (i); }
  }

  fun Next(enabled: set[machine]) : machine {
    var m: machine;
    foreach (m in order) {
      if (m in enabled) {
        last = m;
        return m;
      }
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

  on eRole do (r: (m: machine, role: tRole)) {
    roles[r.m] = r.role;
    Arrange();
  }

  on eInitDone do {
    initDone = true;
    Arrange();
  }
}
