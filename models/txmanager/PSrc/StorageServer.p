/* A storage server of a chain of two holding one account (chain
   replication): the head applies a write and forwards it to the tail; the
   tail applies it and acknowledges it to the participant. A write that is
   already applied (the participant replays its log after a failure) is
   not applied again; the tail acknowledges it again. Besides the fault
   injector's crashes, a test can set a failure point: the server crashes
   when the write of a given transaction arrives. */
machine StorageServer {
  var bug: tBug;
  var succ: machine;               // null at the tail (P: only a machine-typed variable holds null)
  var balance: int;
  var applied: set[int];           // transactions applied here
  var crashAt: int;                // a failure point: crash when this transaction's write arrives

  start state Serving {
    entry (cfg: (succ: StorageServer, balance: int, crashAt: int, bug: tBug)) {
      succ = cfg.succ;
      balance = cfg.balance;
      crashAt = cfg.crashAt;
      bug = cfg.bug;
    }

    on eWrite do (w: tWrite) {
      if (w.txid == crashAt) {
        // the failure point: crash (the write is lost), and the
        // participant's failure detector notices
        send w.participant, eStorageFailure, this;
        raise halt;
      }
      if (w.txid in applied && bug != NODEDUP) {
        // a replayed write: the tail acknowledges it again
        if (succ == null && bug != TAILCRASH) { send w.participant, eWriteAck, w.txid; }
        // BUG TailCrash: a server that became the tail (its tail crashed)
        // drops the replay of a write it had forwarded as a duplicate,
        // without acknowledging it: if the old tail crashed before
        // acknowledging, the participant waits forever.
        return;
      }
      // BUG NoDedup: the check above is missing: a write the participant
      // replays after the head crashed is applied a second time by the
      // tail, which had it from the old head already.
      applied += (w.txid);
      balance = balance + w.delta;
      announce eStored, (server = this, txid = w.txid, delta = w.delta);
      if (succ != null) {
        send succ, eWrite, w;
        if (bug == HEADACK) {
          // BUG HeadAck: the head acknowledges the write as soon as it has
          // applied it, to save a round trip; the transaction can be
          // reported committed before the tail has it.
          send w.participant, eWriteAck, w.txid;
        }
      } else {
        send w.participant, eWriteAck, w.txid;
      }
    }

    // The tail failed: this server is the whole chain now.
    on eBecomeTail do { succ = null; }

    on eCrash do { raise halt; }
  }
}
