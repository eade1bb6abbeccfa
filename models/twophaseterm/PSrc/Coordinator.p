/* A coordinator (transaction manager); there may be several, each running
   one transaction at a time, like the transaction managers of different
   clients. It asks
   every participant to prepare, commits when all vote yes and aborts on a
   no; it logs its decision (the spec hears it) and sends it to every
   participant. It has no timeout of its own: a participant that waits too
   long for the decision runs the termination protocol instead. */
machine Coordinator {
  var id: int;
  var peers: map[int, machine];    // the link to each participant (or the participant)
  var viaLinks: bool;
  var driver: machine;
  var txn: int;
  var yes: set[int];
  var decided: bool;

  start state Init {
    entry (s: (id: int, driver: machine)) {
      id = s.id;
      driver = s.driver;
    }
    on eConnect goto Idle with (c: (peers: map[int, machine], viaLinks: bool)) {
      peers = c.peers;
      viaLinks = c.viaLinks;
    }
  }

  state Idle {
    on eBegin do (t: int) {
      var p: int;
      txn = t;
      yes = default(set[int]);
      decided = false;
      foreach (p in keys(peers)) {
        Transmit(peers[p], viaLinks, ePrepare, (txn = t, coord = id));
      }
      goto Collecting;
    }
    ignore eVote;
  }

  state Collecting {
    defer eBegin;
    on eVote do (v: (txn: int, participant: int, yes: bool)) {
      if (v.txn != txn) {
        return;
      }
      if (!v.yes) {
        Decide(false);
        goto Idle;
      }
      yes += (v.participant);
      if (sizeof(yes) == sizeof(peers)) {
        Decide(true);
        goto Idle;
      }
    }
  }

  fun Decide(commit: bool) {
    var p: int;
    announce eSpecDecided, (txn = txn, decider = id, commit = commit);
    foreach (p in keys(peers)) {
      Transmit(peers[p], viaLinks, eDecision, (txn = txn, commit = commit));
    }
    send driver, eTxDone, (txn = txn, commit = commit);
  }
}

// The driver -> a coordinator or the recovery coordinator: how to reach the
// participants (through links, or directly).
event eConnect : (peers: map[int, machine], viaLinks: bool);
