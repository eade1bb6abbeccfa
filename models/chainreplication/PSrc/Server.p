/* A chain server. The head orders updates (gives them sequence numbers)
   and forwards them down the chain; every server applies them in order and
   keeps the ones it forwarded but has not seen acknowledged by the tail in
   `unacked`; the tail answers queries and acknowledges updates to the client
   and, with a cumulative ack, up the chain. The master relinks the chain
   around failed servers. */
machine Server {
  var bug: tBug;
  var master: Master;
  var pred: machine;               // null at the head (P: only a machine-typed variable holds null)
  var succ: machine;                // null at the tail
  var lastSeq: int;                // sequence number of the last applied update
  var value: int;                  // the replicated register
  var history: seq[tEntry];        // every applied update, in order
  var unacked: seq[tEntry];           // forwarded, not yet acknowledged by the tail

  start state Init {
    entry (cfg: (master: Master, bug: tBug)) {
      master = cfg.master;
      bug = cfg.bug;
      announce eRole, (m = this, role = ROLE_SERVER);
    }
    // Bootstrap: learn the neighbours, pass the configuration on.
    on eSetup goto Serving with (s: (chain: seq[Server], index: int)) {
      if (s.index > 0) { pred = s.chain[s.index - 1]; }
      if (s.index + 1 < sizeof(s.chain)) {
        succ = s.chain[s.index + 1];
        send succ, eSetup, (chain = s.chain, index = s.index + 1);
      } else {
        send master, eSetupDone;
      }
    }
  }

  state Serving {
    // Head: a client's update.
    on eUpdate do (u: tUpdate) {
      assert pred == null, format("update {0} sent to a server that is not the head", u.op);
      if (Applied(u.op)) { return; }     // a client's retry of an update already in the chain
      Apply((sn = lastSeq + 1, upd = u));
    }

    // Not the head: an update from the predecessor.
    on eForward do (f: (from: Server, ent: tEntry)) {
      if (f.from != pred && bug != NOFENCE) {
        return;   // from a server removed from the chain: it was fenced off
      }
      // BUG NoFence: the check above is skipped, so a server that was removed
      // from the chain (and has not stopped yet) still gets its forwards
      // applied, after the new predecessor resent the same updates.
      Apply(f.ent);
    }

    // An acknowledgement from the successor: everything up to sn is at the tail.
    on eAck do (a: (sn: int)) {
      while (sizeof(unacked) > 0 && unacked[0].sn <= a.sn) { unacked -= (0); }
      if (pred != null) { send pred, eAck, a; }
    }

    // Tail: a query sees every update the tail has applied.
    on eQuery do (q: (client: Client, op: int)) {
      assert succ == null, format("query {0} answered by a server that is not the tail", q.op);
      send q.client, eQueryResp, (op = q.op, sn = lastSeq, val = value);
    }

    // Reconfiguration by the master.
    on eBecomeHead do { pred = null; }

    on eBecomeTail do {
      var e: tEntry;
      succ = null;
      if (bug == TAILNOACK) {
        // BUG TailNoAck: the new tail drops its unacked list instead of
        // acknowledging it; the updates its old successor took down with it
        // are never acknowledged (and a client's retry is a duplicate).
        unacked = default(seq[tEntry]);
        return;
      }
      // Everything this server forwarded is now at the tail: acknowledge it.
      foreach (e in unacked) {
        send e.upd.client, eUpdateAck, (op = e.upd.op, sn = e.sn);
      }
      if (sizeof(unacked) > 0 && pred != null) {
        send pred, eAck, (sn = unacked[sizeof(unacked) - 1].sn,);
      }
      unacked = default(seq[tEntry]);
    }

    on eNewPred do (p: (pred: Server, epoch: int)) {
      pred = p.pred;
      send master, eNewPredAck, (server = this, epoch = p.epoch, lastSeq = lastSeq);
    }

    on eNewSucc do (s: (succ: Server, lastSeq: int)) {
      var e: tEntry;
      succ = s.succ;
      // Resend what the new successor has not got.
      foreach (e in unacked) {
        if (e.sn > s.lastSeq) {
          send succ, eForward, (from = this, ent = e);
        }
      }
    }

    on eCrash do { raise halt; }
  }

  fun Applied(op: int) : bool {
    var e: tEntry;
    foreach (e in history) {
      if (e.upd.op == op) { return true; }
    }
    return false;
  }

  fun Apply(e: tEntry) {
    lastSeq = e.sn;
    value = e.upd.val;
    history += (sizeof(history), e);
    announce eApplied, (server = this, ent = e);
    if (succ == null) {
      send e.upd.client, eUpdateAck, (op = e.upd.op, sn = e.sn);
      if (pred != null) { send pred, eAck, (sn = e.sn,); }
    } else {
      unacked += (sizeof(unacked), e);
      send succ, eForward, (from = this, ent = e);
    }
  }
}
