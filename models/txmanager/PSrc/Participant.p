/* A participant of two-phase commit. It keeps its account on a chain of
   two storage servers and is the chain's master: it learns of a storage
   server's failure and shortens the chain. It votes on a transaction (it
   may refuse: a lock conflict, say); when told to commit, it writes its
   part of the transfer to the chain and acknowledges the commit once the
   tail has it. After a failure it replays its redo log (every write it
   committed) to the new chain. */
machine Participant {
  var bug: tBug;
  var coordinator: Coordinator;
  var chain: seq[StorageServer];   // head first
  var mayRefuse: bool;
  var prepared: map[int, int];     // txid -> delta, voted yes, not decided yet
  var writing: map[int, int];      // txid -> delta, committed, written, not acknowledged
  var log: seq[(txid: int, delta: int)];   // every committed write, in order (the redo log)

  start state Serving {
    entry (cfg: (chain: seq[StorageServer], mayRefuse: bool, bug: tBug)) {
      chain = cfg.chain;
      mayRefuse = cfg.mayRefuse;
      bug = cfg.bug;
    }

    on ePrepare do (p: (coordinator: Coordinator, txid: int, delta: int)) {
      coordinator = p.coordinator;
      if (mayRefuse && $) {
        send coordinator, eVote, (participant = this, txid = p.txid, yes = false);
      } else {
        prepared[p.txid] = p.delta;
        send coordinator, eVote, (participant = this, txid = p.txid, yes = true);
      }
    }

    on eCommit do (txid: int) {
      writing[txid] = prepared[txid];
      log += (sizeof(log), (txid = txid, delta = prepared[txid]));
      prepared -= (txid);
      send chain[0], eWrite, (participant = this, txid = txid, delta = writing[txid]);
    }

    on eAbort do (txid: int) {
      if (txid in prepared) { prepared -= (txid); }
    }

    on eWriteAck do (txid: int) {
      var t: int;
      if (bug == ANYACK) {
        // BUG AnyAck: the participant has one write outstanding at a time
        // and takes any acknowledgement for it, without looking at which
        // transaction it acknowledges: the acknowledgement of an earlier
        // write that the log replay after a failure brings completes the
        // current write before the tail has it.
        foreach (t in keys(writing)) { txid = t; }
      }
      if (!(txid in writing)) { return; }      // a duplicate
      writing -= (txid);
      send coordinator, eCommitAck, (participant = this, txid = txid);
    }

    on eStorageFailure do (s: StorageServer) {
      var w: (txid: int, delta: int);
      if (s == chain[0]) {
        chain -= (0);                          // the head failed
      } else {
        chain -= (1);                          // the tail failed
        send chain[0], eBecomeTail;
      }
      // Replay the redo log to the new chain: what it has already is not
      // applied twice, and the tail acknowledges it again.
      foreach (w in log) {
        send chain[0], eWrite, (participant = this, txid = w.txid, delta = w.delta);
      }
    }
  }
}
