/* VR's safety, observed through what the replicas announce:
   - one op per op-number: every op committed (by a primary) or executed
     (by any replica) at an op-number is the same;
   - a new view keeps every committed op: the log a new primary starts its
     view with holds each committed op at its op-number;
   - a replica never loses an op it executed: whenever it takes a new log
     (as a new primary, or from STARTVIEW), the ops it executed are still
     there, at the same op-numbers. */
spec VRSafety observes eSpecCommit, eSpecExecute, eSpecNewView, eSpecLog {
  var committed: map[int, tEntry];
  var executed: map[int, int];       // per replica, how many ops it executed

  start state Watching {
    on eSpecCommit do (m: (opNum: int, ent: tEntry)) {
      Committed(m.opNum, m.ent);
    }
    on eSpecExecute do (m: (replica: int, opNum: int, ent: tEntry)) {
      Committed(m.opNum, m.ent);
      executed[m.replica] = m.opNum;
    }
    on eSpecNewView do (m: (view: int, primary: int, log: seq[tEntry])) {
      var i: int;
      foreach (i in keys(committed)) {
        assert i <= sizeof(m.log) && m.log[i - 1] == committed[i],
          format("replica {0} starts view {1} without op {2} committed at op-number {3}; its log: {4}",
                 m.primary, m.view, committed[i], i, m.log);
      }
    }
    on eSpecLog do (m: (replica: int, view: int, log: seq[tEntry])) {
      var i: int;
      if (!(m.replica in executed)) {
        return;
      }
      i = 1;
      while (i <= executed[m.replica]) {
        assert i <= sizeof(m.log) && m.log[i - 1] == committed[i],
          format("replica {0} takes a log in view {1} without op {2}, which it executed at op-number {3}; the log: {4}",
                 m.replica, m.view, committed[i], i, m.log);
        i = i + 1;
      }
    }
  }

  fun Committed(i: int, e: tEntry) {
    assert !(i in committed) || committed[i] == e,
      format("two ops at op-number {0}: {1} and {2}", i, committed[i], e);
    committed[i] = e;
  }
}
