/* The recovery coordinator: the cooperative termination protocol, run
   when a participant's timer for a transaction fires and the decision has
   not come. It asks every participant for its state: if one committed or
   aborted, that is the outcome; a participant that had not voted aborts
   when asked, so then the outcome is abort; if all are prepared, the
   outcome is unknown and the protocol blocks (2PC's blocking case: only
   the coordinator can decide). */
machine Recovery {
  var peers: map[int, machine];    // the link to each participant (or the participant)
  var viaLinks: bool;
  var driver: machine;
  var bug: tTpcBug;
  var txn: int;
  var states: map[int, tTxState];

  start state Init {
    entry (s: (driver: machine, bug: tTpcBug)) {
      driver = s.driver;
      bug = s.bug;
    }
    on eConnect goto Idle with (c: (peers: map[int, machine], viaLinks: bool)) {
      peers = c.peers;
      viaLinks = c.viaLinks;
    }
  }

  state Idle {
    on eTerminate do (t: int) {
      var p: int;
      txn = t;
      states = default(map[int, tTxState]);
      foreach (p in keys(peers)) {
        Transmit(peers[p], viaLinks, eStateReq, (txn = t,));
      }
      goto Asking;
    }
    ignore eStateResp;
  }

  state Asking {
    defer eTerminate;
    on eStateResp do (m: (txn: int, participant: int, st: tTxState)) {
      var p: int;
      var outcome: tTxState;
      if (m.txn != txn) {
        return;
      }
      states[m.participant] = m.st;
      if (sizeof(states) < sizeof(peers)) {
        return;
      }
      outcome = TX_PREPARED;
      foreach (p in keys(states)) {
        if (states[p] == TX_COMMITTED || states[p] == TX_ABORTED) {
          outcome = states[p];
        }
      }
      // BUG TermAbortUncertain: every participant is prepared, and the
      // protocol aborts anyway ("the coordinator must have failed"); but
      // the coordinator may still commit.
      if (outcome == TX_PREPARED && bug == TPC_TERM_ABORT_UNCERTAIN) {
        outcome = TX_ABORTED;
      }
      if (outcome != TX_PREPARED) {
        announce eSpecDecided, (txn = txn, decider = 0, commit = outcome == TX_COMMITTED);
        foreach (p in keys(peers)) {
          Transmit(peers[p], viaLinks, eDecision, (txn = txn, commit = outcome == TX_COMMITTED));
        }
      }
      send driver, eTermDone, (txn = txn, st = outcome);
      goto Idle;
    }
  }
}
