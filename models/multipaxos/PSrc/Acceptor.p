/* An acceptor promises ballots (phase 1) and accepts proposals (phase 2),
   for every slot. Its promise and its accepted proposals must be on disk
   before it answers: after a crash it restarts from the disk. `crashes`
   bounds how often it may crash (at the end of handling a message). */
machine Acceptor {
  var bug: tBug;
  var promised: tBallot;
  var accepted: map[int, tPValue];
  var diskPromised: tBallot;
  var diskAccepted: map[int, tPValue];
  var crashes: int;

  start state Init {
    entry (cfg: (crashes: int, bug: tBug)) {
      bug = cfg.bug;
      crashes = cfg.crashes;
      promised = (round = -1, lid = -1);
      diskPromised = promised;
      goto Serve;
    }
  }

  state Serve {
    on eP1a do (req: (leader: Leader, ballot: tBallot)) {
      if (BallotLess(promised, req.ballot)) {
        promised = req.ballot;
        if (bug == EARLYREPLY) {
          // BUG EarlyReply: the promise is answered at once and written to
          // disk afterwards (batched with the next write); a crash in
          // between forgets a promise the leader is counting on.
          send req.leader, eP1b, (acceptor = this, ballot = req.ballot, accepted = accepted);
          send this, eFlush;
        } else {
          Persist();
          send req.leader, eP1b, (acceptor = this, ballot = req.ballot, accepted = accepted);
        }
      } else {
        send req.leader, eNack, (ballot = promised,);
      }
      MaybeCrash();
    }

    on eP2a do (req: (leader: Leader, ballot: tBallot, slot: int, val: int)) {
      var ok: bool;
      if (bug == STALEP2A) {
        // BUG StaleP2a: the acceptor compares the proposal's ballot with
        // the ballot it last accepted in that slot, not with its promise:
        // after promising a new leader, it still accepts what the old
        // leader sent for a slot it had not accepted anything in.
        ok = !(req.slot in accepted) || !BallotLess(req.ballot, accepted[req.slot].ballot);
      } else {
        ok = !BallotLess(req.ballot, promised);
      }
      if (ok) {
        if (BallotLess(promised, req.ballot)) { promised = req.ballot; }
        accepted[req.slot] = (ballot = req.ballot, val = req.val);
        Persist();
        announce eAccepted, (acceptor = this, ballot = req.ballot, slot = req.slot, val = req.val);
        send req.leader, eP2b, (acceptor = this, ballot = req.ballot, slot = req.slot);
      } else {
        send req.leader, eNack, (ballot = promised,);
      }
      MaybeCrash();
    }

    on eFlush do { Persist(); }
  }

  fun Persist() {
    diskPromised = promised;
    diskAccepted = accepted;
  }

  // A crash (and restart) after handling a message: what was not on disk is lost.
  fun MaybeCrash() {
    if (crashes > 0 && $) {
      crashes = crashes - 1;
      promised = diskPromised;
      accepted = diskAccepted;
    }
  }
}
