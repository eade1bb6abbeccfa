/* The coordinator of two-phase commit, one transaction at a time: it asks
   every participant to prepare, and once every vote is in, commits if all
   voted yes (and reports the commit once every participant has its part
   on its storage chain) or aborts otherwise. */
machine Coordinator {
  var bug: tBug;
  var participants: seq[Participant];
  var tx: tTx;
  var yes: int;
  var votes: int;
  var acks: int;

  start state Init {
    entry (cfg: (participants: seq[Participant], bug: tBug)) {
      participants = cfg.participants;
      bug = cfg.bug;
      goto Idle;
    }
  }

  state Idle {
    on eTxReq goto CollectVotes with (t: tTx) {
      tx = t;
      yes = 0;
      votes = 0;
      // the first participant pays, the second receives
      send participants[0], ePrepare, (coordinator = this, txid = tx.txid, delta = -tx.amount);
      send participants[1], ePrepare, (coordinator = this, txid = tx.txid, delta = tx.amount);
    }
  }

  state CollectVotes {
    defer eTxReq;
    on eVote do (v: (participant: Participant, txid: int, yes: bool)) {
      votes = votes + 1;
      if (v.yes) { yes = yes + 1; }
      if (!v.yes && bug == EARLYABORT) {
        // BUG EarlyAbort: the coordinator aborts at the first "no" without
        // waiting for the other vote, which then arrives in a state that
        // does not expect it.
        Abort();
        goto Idle;
      }
      if (votes < sizeof(participants)) { return; }
      if (yes == sizeof(participants)) {
        Broadcast(eCommit);
        goto WaitAcks;
      }
      Abort();
      goto Idle;
    }
  }

  state WaitAcks {
    entry { acks = 0; }
    defer eTxReq;
    on eCommitAck do (a: (participant: Participant, txid: int)) {
      acks = acks + 1;
      if (acks == sizeof(participants)) {
        send tx.client, eTxResult, (txid = tx.txid, committed = true);
        goto Idle;
      }
    }
  }

  fun Abort() {
    Broadcast(eAbort);
    send tx.client, eTxResult, (txid = tx.txid, committed = false);
  }

  fun Broadcast(e: event) {
    var p: Participant;
    foreach (p in participants) { send p, e, tx.txid; }
  }
}
