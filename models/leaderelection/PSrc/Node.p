/* A ring node (LCR with arbitrary initiators). An initiator sends its id to
   its successor; a node that is not an initiator sleeps until the first
   election message wakes it. A node forwards ids larger than its own and
   drops smaller ones; a node that receives its own id back is the leader
   and sends an announcement around the ring, which every other node
   records and forwards.
   With retransmission on, a candidate arms a timer after sending its id and
   sends it once more if the timer fires before the id has come back (a
   transport that may lose messages would need it; here the copy is only a
   duplicate that every node must tolerate). */
machine Node {
  var myId: int;
  var bug: tLeBug;
  var succ: Node;
  var retransmit: bool;
  var timer: Timer;
  var leader: int;

  start state Init {
    entry (cfg: tNodeInit) {
      myId = cfg.id;
      bug = cfg.bug;
      leader = -1;
    }
    // a neighbour configured earlier may already be running
    defer eElect;
    on eConfig do (c: tNodeConfig) {
      succ = c.succ;
      retransmit = c.retransmit;
      if (c.initiator) {
        goto Candidate;
      }
      goto Asleep;
    }
  }

  /* Not an initiator: the first election message wakes the node. */
  state Asleep {
    on eElect do (x: int) {
      if (x > myId) {
        send succ, eElect, x;
        goto Relay;
      }
      if (bug == L_WAKE_FORWARD) {
        // BUG WakeForward: a node woken by an election message passes it
        // on instead of competing with its own id when its id is larger.
        send succ, eElect, x;
        goto Relay;
      }
      goto Candidate;    // x < myId: drop x, compete with the own id
    }
  }

  state Candidate {
    entry {
      send succ, eElect, myId;
      if (retransmit) {
        timer = new Timer(this);
      }
    }
    on eElect do (x: int) {
      if (x == myId) {
        StopTimer();
        announce eSpecElected, myId;
        leader = myId;
        announce eSpecLearned, (node = myId, leader = myId);
        send succ, eLeader, myId;
        goto Leader;
      }
      if (x > myId) {
        send succ, eElect, x;
        StopTimer();
        if (bug == L_STALE_TIMEOUT && retransmit) {
          // BUG StaleTimeout: the timer is cancelled, so the node relays
          // like a node that never armed one -- but the timeout may
          // already be on its way.
          goto Relay;
        }
        if (retransmit) {
          goto Lost;
        }
        goto Relay;
      }
      // x < myId: drop it
    }
    on eTimeOut do {
      // the id has not come back yet: send it once more (once only)
      send succ, eElect, myId;
    }
  }

  /* Lost to a larger id, no timer ever armed: relay election messages and
     the announcement. */
  state Relay {
    on eElect do (x: int) {
      RelayElect(x);
    }
    on eLeader do (l: int) {
      Learn(l);
      goto Done;
    }
  }

  /* Lost to a larger id after arming the timer: as Relay, but a timeout
     sent before the cancel arrived must be dropped. */
  state Lost {
    ignore eTimeOut;
    on eElect do (x: int) {
      RelayElect(x);
    }
    on eLeader do (l: int) {
      Learn(l);
      goto Done;
    }
  }

  state Leader {
    ignore eTimeOut;
    on eElect do (x: int) {
      if (x == myId && bug == L_LEADER_TWICE) {
        // BUG LeaderTwice: a retransmitted copy of the own id, still in
        // flight when the node won, is taken as a new win.
        announce eSpecElected, myId;
        send succ, eLeader, myId;
      }
      // otherwise: a duplicate of the own id, or a smaller id; drop it
    }
    // the announcement went around the ring
    on eLeader goto Done;
  }

  state Done {
    ignore eTimeOut;
  }

  fun RelayElect(x: int) {
    if (x > myId && bug != L_RELAY_DROP) {
      send succ, eElect, x;
    }
    // BUG RelayDrop: a node that lost stops relaying ("it is out of the
    // election") and drops even ids larger than the one it lost to.
  }

  fun Learn(l: int) {
    leader = l;
    announce eSpecLearned, (node = myId, leader = l);
    send succ, eLeader, l;
  }

  fun StopTimer() {
    if (retransmit) {
      send timer, eCancelTimer;
    }
  }
}
