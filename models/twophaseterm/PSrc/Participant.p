/* A participant (resource manager). On ePrepare it votes yes (the model's
   participants are always willing) and is then uncertain: it must not
   decide alone, only the coordinator or the termination protocol can tell
   it the outcome. Before it votes it may abort on its own: when its timer
   fires, or when the termination protocol asks for its state; a later
   ePrepare then gets a no. The outcome it applies is final. */
machine Participant {
  var id: int;
  var bug: tTpcBug;
  var coordinators: map[int, machine];   // the link to each coordinator
  var recovery: machine;                 // the link to the recovery coordinator
  var viaLinks: bool;                    // false: the maps hold the machines themselves
  var txState: map[int, tTxState];

  start state Init {
    entry (s: (id: int, bug: tTpcBug)) {
      id = s.id;
      bug = s.bug;
    }
    on eConnectParticipant goto Serving with (c: (coordinators: map[int, machine], recovery: machine, viaLinks: bool)) {
      coordinators = c.coordinators;
      recovery = c.recovery;
      viaLinks = c.viaLinks;
    }
  }

  state Serving {
    on ePrepare do (m: (txn: int, coord: int)) {
      var s: tTxState;
      s = Get(m.txn);
      // BUG ForgetAbort: an abort taken before voting is not remembered
      // (nothing is logged for it: "presumed abort"), so a late prepare
      // finds a transaction it does not know and gets a yes.
      if (s == TX_INIT || (s == TX_ABORTED && bug == TPC_FORGET_ABORT)) {
        txState[m.txn] = TX_PREPARED;
        Reply(coordinators[m.coord], eVote, (txn = m.txn, participant = id, yes = true));
      } else if (s == TX_ABORTED) {
        Reply(coordinators[m.coord], eVote, (txn = m.txn, participant = id, yes = false));
      }
    }
    on eDecision do (m: (txn: int, commit: bool)) {
      Apply(m.txn, m.commit);
    }
    on eStateReq do (m: (txn: int)) {
      // not yet voted: abort now, so that the termination protocol may
      if (Get(m.txn) == TX_INIT) {
        Apply(m.txn, false);
      }
      Reply(recovery, eStateResp, (txn = m.txn, participant = id, st = Get(m.txn)));
    }
    on eDecisionTimeout do (t: int) {
      if (Get(t) == TX_INIT) {
        Apply(t, false);
      }
      // BUG PreparedTimeout: "the coordinator is gone": a prepared
      // participant aborts on its own, in its uncertainty period.
      if (Get(t) == TX_PREPARED && bug == TPC_PREPARED_TIMEOUT) {
        Apply(t, false);
      }
    }
  }

  fun Get(t: int) : tTxState {
    if (t in txState) {
      return txState[t];
    }
    return TX_INIT;
  }

  // Applies an outcome (once: later decisions are for the spec to judge).
  fun Apply(t: int, commit: bool) {
    announce eSpecOutcome, (txn = t, participant = id, commit = commit);
    if (Get(t) == TX_INIT || Get(t) == TX_PREPARED) {
      if (commit) {
        txState[t] = TX_COMMITTED;
      } else {
        txState[t] = TX_ABORTED;
      }
    }
  }

  fun Reply(dst: machine, e: event, payload: any) {
    Transmit(dst, viaLinks, e, payload);
  }
}

event eConnectParticipant : (coordinators: map[int, machine], recovery: machine, viaLinks: bool);
