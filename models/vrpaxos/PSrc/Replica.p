/* A VR replica (Viewstamped Replication Revisited, sections 4.1 and 4.2).
   Normal operation: the primary appends a client operation to its log and
   sends PREPARE to the backups; a backup in normal status and the same
   view appends it (in op-number order) and answers PREPAREOK; with f
   answers the primary commits the op, executes it and tells the backups
   (COMMIT). View change: a replica that suspects the primary, or hears of
   a later view, moves to that view in view-change status and sends
   STARTVIEWCHANGE; with f of them from others it sends DOVIEWCHANGE (its
   log, the last view it was normal in, its commit number) to the new
   primary; with f + 1 of those the new primary takes the log of the one
   with the latest normal view (then the most ops), becomes normal and
   sends STARTVIEW; the others adopt it and acknowledge its uncommitted
   ops. No recovery protocol: a crashed replica stays down. */
machine Replica {
  var id: int;
  var n: int;
  var f: int;
  var driver: machine;
  var bug: tVRBug;
  var peers: map[int, machine];      // how to reach each other replica
  var viaLinks: bool;

  var view: int;                     // the view it is in (normal) or moving to (view change)
  var lastNormal: int;               // the latest view in which its status was normal
  var log: seq[tEntry];
  var commit: int;                   // op-number of the latest op it knows to be committed
  var executed: int;                 // ops executed so far (a prefix of the log, <= commit)
  var acked: map[int, int];          // primary: per backup, the op-number its log holds up to, this view
  var svcFrom: set[int];             // view change: who sent STARTVIEWCHANGE for this view
  var sentDvc: bool;                 // view change: DOVIEWCHANGE sent for this view
  var dvcs: map[int, tDoViewChange]; // new primary: the DOVIEWCHANGE messages for this view

  start state Init {
    entry (s: tReplicaSetup) {
      id = s.id;
      n = s.n;
      f = (s.n - 1) / 2;
      driver = s.driver;
      bug = s.bug;
    }
    on eConnect goto Normal with (c: (peers: map[int, machine], viaLinks: bool)) {
      peers = c.peers;
      viaLinks = c.viaLinks;
    }
  }

  state Normal {
    on eRequest do (op: int) {
      var e: tEntry;
      var j: int;
      if (PrimaryOf(view) != id) {
        return;   // a backup drops client requests; the client tries another replica
      }
      e = (view = view, op = op);
      log += (sizeof(log), e);
      foreach (j in keys(peers)) {
        SendTo(j, ePrepare, (view = view, opNum = sizeof(log), ent = e, commit = commit));
      }
    }
    on ePing do (s: int) { }
    on ePrepare do (p: tPrepare) {
      var accept: bool;
      if (PrimaryOf(view) == id) {
        return;   // PREPARE is for backups
      }
      accept = p.view == view;
      // BUG StalePrepare: a backup checks only that the op is the next one
      // in its log, not that the PREPARE is of its view: a PREPARE of an
      // earlier view's primary, delivered late, is appended (and
      // acknowledged to that primary).
      if (bug == VR_STALE_PREPARE && p.view < view) {
        accept = true;
      }
      if (accept) {
        Prepared(p);
      }
    }
    on ePrepareOk do (ok: tPrepareOk) {
      if (ok.view != view || PrimaryOf(view) != id) {
        return;
      }
      if (!(ok.from in acked) || acked[ok.from] < ok.opNum) {
        acked[ok.from] = ok.opNum;
      }
      AdvanceCommit();
    }
    on eCommit do (c: tCommit) {
      if (c.view == view) {
        Learn(c.commit);
      }
    }
    on eTimeout do (v: int) {
      if (v >= view) {
        StartViewChange(v + 1);
        goto ViewChange;
      }
    }
    on eStartViewChange do (m: tStartViewChange) {
      if (m.view > view) {
        StartViewChange(m.view);
        svcFrom += (m.from);
        CheckStartViewChanges();
        goto ViewChange;
      }
    }
    on eDoViewChange do (m: tDoViewChange) {
      if (m.view > view) {
        StartViewChange(m.view);
        if (RecordDoViewChange(m)) {
          return;
        }
        goto ViewChange;
      }
    }
    on eStartView do (m: tStartView) {
      if (m.view > view) {
        AdoptView(m);
      }
    }
    on eCrash goto Crashed;
  }

  state ViewChange {
    ignore eRequest, ePing, ePrepare, ePrepareOk, eCommit;
    on eTimeout do (v: int) {
      // the view change to view v stalls (its primary does not answer)
      if (v >= view) {
        StartViewChange(v + 1);
      }
    }
    on eStartViewChange do (m: tStartViewChange) {
      if (m.view > view) {
        StartViewChange(m.view);
      }
      if (m.view == view) {
        svcFrom += (m.from);
        CheckStartViewChanges();
      }
    }
    on eDoViewChange do (m: tDoViewChange) {
      if (m.view > view) {
        StartViewChange(m.view);
      }
      if (m.view == view) {
        RecordDoViewChange(m);
      }
    }
    on eStartView do (m: tStartView) {
      if (m.view >= view) {
        AdoptView(m);
      }
    }
    on eCrash goto Crashed;
  }

  state Crashed {
    ignore eRequest, ePing, ePrepare, ePrepareOk, eCommit, eTimeout, eStartViewChange,
           eDoViewChange, eStartView, eCrash;
  }

  fun PrimaryOf(v: int) : int {
    return v % n;
  }

  fun SendTo(j: int, e: event, payload: any) {
    if (viaLinks) {
      send peers[j], ePacket, (ev = e, payload = payload);
    } else {
      send peers[j], e, payload;
    }
  }

  /* A backup appends a PREPARE's op if it is the next one, acknowledges
     what its log holds, and learns the primary's commit number. */
  fun Prepared(p: tPrepare) {
    if (p.opNum == sizeof(log) + 1) {
      log += (sizeof(log), p.ent);
    }
    if (p.opNum <= sizeof(log)) {
      SendTo(PrimaryOf(p.view), ePrepareOk, (view = p.view, opNum = p.opNum, from = id));
    }
    if (p.view == view) {
      Learn(p.commit);
    }
  }

  /* The primary commits, in order, every op that f backups hold. */
  fun AdvanceCommit() {
    var c: int;
    var count: int;
    var j: int;
    var advanced: bool;
    while (commit < sizeof(log)) {
      c = commit + 1;
      count = 0;
      foreach (j in keys(acked)) {
        if (acked[j] >= c) {
          count = count + 1;
        }
      }
      if (count < f) {
        break;
      }
      commit = c;
      advanced = true;
      announce eSpecCommit, (opNum = c, ent = log[c - 1]);
      send driver, eOpCommitted, log[c - 1].op;
    }
    Execute();
    if (advanced) {
      foreach (j in keys(peers)) {
        SendTo(j, eCommit, (view = view, commit = commit));
      }
    }
  }

  /* A backup learns that ops up to c are committed and executes them. */
  fun Learn(c: int) {
    if (c > sizeof(log)) {
      c = sizeof(log);
    }
    if (c > commit) {
      commit = c;
    }
    Execute();
  }

  fun Execute() {
    while (executed < commit) {
      executed = executed + 1;
      announce eSpecExecute, (replica = id, opNum = executed, ent = log[executed - 1]);
    }
  }

  /* Moves to view v in view-change status and says so to every replica. */
  fun StartViewChange(v: int) {
    var j: int;
    view = v;
    svcFrom = default(set[int]);
    sentDvc = false;
    dvcs = default(map[int, tDoViewChange]);
    acked = default(map[int, int]);
    foreach (j in keys(peers)) {
      SendTo(j, eStartViewChange, (view = v, from = id));
    }
  }

  /* With STARTVIEWCHANGE from f others: DOVIEWCHANGE to the new primary. */
  fun CheckStartViewChanges() {
    var d: tDoViewChange;
    if (sentDvc || sizeof(svcFrom) < f) {
      return;
    }
    sentDvc = true;
    d = (view = view, log = log, lastNormal = lastNormal, commit = commit, from = id);
    if (PrimaryOf(view) == id) {
      RecordDoViewChange(d);
    } else {
      SendTo(PrimaryOf(view), eDoViewChange, d);
    }
  }

  /* The new primary collects DOVIEWCHANGE; with f + 1 it starts the view
     (and leaves for Normal: true). */
  fun RecordDoViewChange(d: tDoViewChange) : bool {
    if (PrimaryOf(view) != id) {
      return false;
    }
    dvcs[d.from] = d;
    if (sizeof(dvcs) < f + 1) {
      return false;
    }
    StartView();
    return true;
  }

  fun StartView() {
    var best: tDoViewChange;
    var first: bool;
    var j: int;
    var d: tDoViewChange;
    var maxCommit: int;
    first = true;
    if (id in dvcs) {
      best = dvcs[id];   // its own log, unless another one is better
      first = false;
    }
    foreach (j in keys(dvcs)) {
      d = dvcs[j];
      if (first || Better(d, best)) {
        best = d;
        first = false;
      }
      if (d.commit > maxCommit) {
        maxCommit = d.commit;
      }
    }
    log = best.log;
    lastNormal = view;
    if (maxCommit > sizeof(log)) {
      maxCommit = sizeof(log);
    }
    if (maxCommit > commit) {
      commit = maxCommit;
    }
    acked = default(map[int, int]);
    announce eSpecNewView, (view = view, primary = id, log = log);
    announce eSpecLog, (replica = id, view = view, log = log);
    foreach (j in keys(peers)) {
      SendTo(j, eStartView, (view = view, log = log, commit = commit));
    }
    Execute();
    send driver, eViewStarted, (view = view, primary = id);
    goto Normal;
  }

  /* The log a new primary takes: the one of the latest normal view, then
     the longest. */
  fun Better(a: tDoViewChange, b: tDoViewChange) : bool {
    // BUG LongestLog: the new primary compares the logs by op-number only,
    // not by the view they were last normal in: a replica cut off in an
    // old view, with ops its primary never committed, can have the longest
    // log and win over the ops a later view committed.
    if (bug == VR_LONGEST_LOG) {
      return sizeof(a.log) > sizeof(b.log);
    }
    return a.lastNormal > b.lastNormal || (a.lastNormal == b.lastNormal && sizeof(a.log) > sizeof(b.log));
  }

  fun AdoptView(m: tStartView) {
    view = m.view;
    lastNormal = m.view;
    log = m.log;
    announce eSpecLog, (replica = id, view = view, log = log);
    Learn(m.commit);
    if (sizeof(log) > commit) {
      SendTo(PrimaryOf(view), ePrepareOk, (view = view, opNum = sizeof(log), from = id));
    }
    goto Normal;
  }
}
