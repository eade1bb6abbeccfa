/* A ZooKeeper server running Zab as ZooKeeper implements it (the quorum
   code since 3.4; "Zab 1.0" in ZooKeeper's terms):
   - fast leader election (FastLeaderElection): a LOOKING server votes for
     the server with the highest (current epoch, last zxid, id) it has heard
     of, in rounds, and tells a LOOKING server that votes for a worse one
     (ZooKeeper resends its vote when no notification comes for a while);
     it decides once a quorum votes as it does, or once a quorum says
     (FOLLOWING or LEADING) that some server leads and that server says so
     itself;
   - discovery: followers send FOLLOWERINFO (their accepted epoch); with a
     quorum the leader picks a new epoch above them all and sends
     LEADERINFO; a follower accepts an epoch not below its accepted epoch
     and answers ACKEPOCH with its current epoch and last zxid;
   - synchronization: once a quorum acknowledged the epoch, the leader sends
     each follower a DIFF (the transactions after the follower's last zxid)
     or a TRUNC followed by a DIFF, its outstanding proposals, then
     NEWLEADER; with NEWLEADER acknowledged by a quorum the leader is
     established, commits its history and sends UPTODATE;
   - broadcast: PROPOSAL, ACK, and COMMIT once a quorum acknowledged.
   A follower takes messages only from its leader and in its epoch. A
   crashed server stays down (no recovery from disk). */
machine Server {
  var id: int;
  var n: int;
  var quorum: int;
  var driver: machine;
  var bug: tZabBug;
  var peers: map[int, machine];         // how to reach each other server
  var viaLinks: bool;
  var logWriter: SyncThread;            // writes the log and acknowledges (a follower's)

  // on disk
  var acceptedEpoch: int;               // the epoch of the last LEADERINFO accepted
  var currentEpoch: int;                // the epoch of the last NEWLEADER accepted
  var history: seq[tTxn];               // the transaction log
  var delivered: int;                   // transactions applied, a prefix of the log

  // election
  var round: int;                       // the election round (ZooKeeper's logical clock)
  var vote: tVote;
  var votes: map[int, tVote];           // this round's votes of LOOKING servers (its own included)
  var outOfElection: map[int, int];     // servers that follow or lead: whom they follow
  var leadingSeen: set[int];            // servers that said they lead

  // following (leader: also the server's own id when it leads)
  var leader: int;
  var leaderEpoch: int;                 // the epoch of the LEADERINFO accepted from this leader
  var conn: int;                        // its connection to the leader (one more each time it follows)
  var unlogged: seq[tTxn];              // proposals of the synchronization not in the log yet
  var pending: seq[tTxn];               // proposals of the synchronization not committed yet
  var commitZxid: tZxid;                // the highest zxid known to be committed
  var newLeaderSeen: bool;
  var synced: bool;                     // UPTODATE received

  // leading
  var newEpoch: int;                    // the epoch being established (-1: not chosen yet)
  var connecting: map[int, int];        // FOLLOWERINFO received: accepted epoch per server (its own included)
  var ackedEpoch: set[int];
  var toSync: map[int, tZxid];          // ACKEPOCH received, synchronization not started: last zxid per follower
  var newLeaderAcked: set[int];
  var established: bool;
  var forwarding: set[int];             // followers that get the proposals and commits
  var conns: map[int, int];             // the current connection of each follower
  var acks: map[tZxid, set[int]];       // proposals not committed yet: who logged them

  start state Init {
    entry (s: tServerSetup) {
      id = s.id;
      n = s.n;
      quorum = s.n / 2 + 1;
      driver = s.driver;
      bug = s.bug;
      newEpoch = -1;
    }
    on eConnect goto Down with (c: (peers: map[int, machine], viaLinks: bool, logWriter: machine)) {
      peers = c.peers;
      viaLinks = c.viaLinks;
      logWriter = c.logWriter as SyncThread;
    }
  }

  /* Not started yet: the first timeout starts it. */
  state Down {
    on eTimeout goto Looking;
    on eCrash goto Crashed;
    ignore eNotification, eFollowerInfo, eLeaderInfo, eAckEpoch, eSync, eNewLeader, eAckNewLeader,
           eUpToDate, eProposal, eAck, eCommit, eRequest, ePing;
  }

  state Looking {
    entry {
      round = round + 1;
      vote = MyVote();
      votes = default(map[int, tVote]);
      votes[id] = vote;
      outOfElection = default(map[int, int]);
      leadingSeen = default(set[int]);
      BroadcastVote();
    }
    on eNotification do (m: tNotification) {
      if (m.peerState == LOOKING) {
        if (m.round > round) {
          round = m.round;
          votes = default(map[int, tVote]);
          vote = MyVote();
          if (Better(m.vote, vote)) {
            vote = m.vote;
          }
          votes[id] = vote;
          BroadcastVote();
        } else if (m.round < round) {
          SendTo(m.from, eNotification, Notification(LOOKING));
          return;
        } else if (Better(m.vote, vote)) {
          vote = m.vote;
          votes[id] = vote;
          BroadcastVote();
        } else if (Better(vote, m.vote)) {
          // The sender does not know the better vote (it was not looking
          // when this server broadcast it): tell it. (ZooKeeper resends
          // its notifications when no new one arrives for a while.)
          SendTo(m.from, eNotification, Notification(LOOKING));
        }
        votes[m.from] = m.vote;
        if (Supporters(vote.leader) >= quorum) {
          Decide(vote.leader);
        }
      } else {
        outOfElection[m.from] = m.vote.leader;
        if (m.peerState == LEADING) {
          leadingSeen += (m.from);
        }
        if (m.vote.leader in leadingSeen && Followers(m.vote.leader) >= quorum) {
          Decide(m.vote.leader);
        }
      }
    }
    on eTimeout goto Looking;
    on eCrash goto Crashed;
    // a follower that decided earlier keeps trying to connect (Learner.connectToLeader)
    defer eFollowerInfo;
    ignore eLeaderInfo, eAckEpoch, eSync, eNewLeader, eAckNewLeader, eUpToDate,
           eProposal, eAck, eCommit, eRequest, ePing;
  }

  state Following {
    entry {
      leaderEpoch = -1;
      unlogged = default(seq[tTxn]);
      pending = default(seq[tTxn]);
      newLeaderSeen = false;
      synced = false;
      conn = conn + 1;
      SendTo(leader, eFollowerInfo, (from = id, conn = conn, acceptedEpoch = acceptedEpoch));
    }
    on eLeaderInfo do (m: tLeaderInfo) {
      if (m.from != leader || m.conn != conn) {
        return;
      }
      if (m.epoch < acceptedEpoch) {
        goto Looking;   // the leader's epoch is older than one already accepted
      }
      acceptedEpoch = m.epoch;
      leaderEpoch = m.epoch;
      SendTo(leader, eAckEpoch, (from = id, conn = conn, epoch = m.epoch, currentEpoch = currentEpoch, lastZxid = LastZxid()));
    }
    on eSync do (m: tSync) {
      var t: tTxn;
      if (!FromLeader(m.from, m.conn, m.epoch)) {
        return;
      }
      if (m.trunc) {
        Truncate(m.truncTo);
      }
      foreach (t in m.diff) {
        history += (sizeof(history), t);
      }
      commitZxid = LastZxid();
      foreach (t in m.outstanding) {
        unlogged += (sizeof(unlogged), t);
        pending += (sizeof(pending), t);
      }
    }
    on eProposal do (m: tProposal) {
      if (!FromLeader(m.from, m.conn, m.epoch)) {
        return;
      }
      if (!synced) {
        pending += (sizeof(pending), m.txn);
        if (!newLeaderSeen) {
          unlogged += (sizeof(unlogged), m.txn);
          return;
        }
      }
      Log(m.txn);
    }
    on eCommit do (m: tAckZxid) {
      if (!FromLeader(m.from, m.conn, m.epoch)) {
        return;
      }
      if (!synced) {
        // syncWithLeader matches a COMMIT with the first proposal not
        // committed yet (packetsNotCommitted.peekFirst()).
        assert sizeof(pending) > 0,
          format("server {0}: NullPointerException in syncWithLeader: COMMIT of zxid {1} between NEWLEADER and UPTODATE, no proposal waiting for it",
                 id, m.zxid);
        pending -= (0);
      }
      if (ZxidLess(commitZxid, m.zxid)) {
        commitZxid = m.zxid;
      }
      if (synced) {
        DeliverCommitted();
      }
    }
    on eNewLeader do (m: tEpochMsg) {
      var t: tTxn;
      var logged: seq[tTxn];
      if (!FromLeader(m.from, m.conn, m.epoch)) {
        return;
      }
      currentEpoch = m.epoch;
      newLeaderSeen = true;
      // The proposals of the synchronization go to the log before NEWLEADER
      // is acknowledged (ZOOKEEPER-3911); the log writer acknowledges them
      // as it writes them, concurrently with the acknowledgement of
      // NEWLEADER.
      logged = unlogged;
      foreach (t in logged) {
        history += (sizeof(history), t);
      }
      unlogged = default(seq[tTxn]);
      // BUG CommitBeforeUptodate: one list serves both to log and to commit
      // the proposals of the synchronization, and logging empties it; a
      // COMMIT for one of them that arrives before UPTODATE finds no
      // proposal (ZOOKEEPER-4394).
      if (bug == ZAB_COMMIT_BEFORE_UPTODATE) {
        pending = default(seq[tTxn]);
      }
      if (sizeof(logged) > 0) {
        send logWriter, eLog, (leader = leader, conn = conn, epoch = leaderEpoch, txns = logged);
      }
      SendTo(leader, eAckNewLeader, (from = id, conn = conn, epoch = m.epoch));
    }
    on eUpToDate do (m: tEpochMsg) {
      if (!FromLeader(m.from, m.conn, m.epoch)) {
        return;
      }
      synced = true;
      DeliverCommitted();
      send driver, eSynced, (server = id, leader = leader);
    }
    on eNotification do (m: tNotification) {
      if (m.peerState == LOOKING) {
        SendTo(m.from, eNotification, Notification(FOLLOWING));
      }
    }
    on eTimeout goto Looking;
    on eCrash goto Crashed;
    ignore eFollowerInfo, eAckEpoch, eAckNewLeader, eAck, eRequest, ePing;
  }

  state Leading {
    entry {
      newEpoch = -1;
      connecting = default(map[int, int]);
      connecting[id] = acceptedEpoch;
      ackedEpoch = default(set[int]);
      ackedEpoch += (id);
      toSync = default(map[int, tZxid]);
      newLeaderAcked = default(set[int]);
      newLeaderAcked += (id);
      established = false;
      forwarding = default(set[int]);
      conns = default(map[int, int]);
      acks = default(map[tZxid, set[int]]);
    }
    on eFollowerInfo do (m: tFollowerInfo) {
      var j: int;
      if (m.from in conns) {
        // the follower reconnects: what the old connection did is void
        forwarding -= (m.from);
        ackedEpoch -= (m.from);
        newLeaderAcked -= (m.from);
        toSync -= (m.from);
      }
      conns[m.from] = m.conn;
      connecting[m.from] = m.acceptedEpoch;
      if (newEpoch >= 0) {
        SendTo(m.from, eLeaderInfo, (from = id, conn = m.conn, epoch = newEpoch));
        return;
      }
      if (sizeof(connecting) < quorum) {
        return;
      }
      foreach (j in keys(connecting)) {
        if (connecting[j] > newEpoch) {
          newEpoch = connecting[j];
        }
      }
      newEpoch = newEpoch + 1;
      acceptedEpoch = newEpoch;
      foreach (j in keys(connecting)) {
        if (j != id) {
          SendTo(j, eLeaderInfo, (from = id, conn = conns[j], epoch = newEpoch));
        }
      }
    }
    on eAckEpoch do (m: tAckEpoch) {
      var j: int;
      if (m.epoch != newEpoch || !Current(m.from, m.conn)) {
        return;
      }
      if (m.currentEpoch > currentEpoch || (m.currentEpoch == currentEpoch && ZxidLess(LastZxid(), m.lastZxid))) {
        goto Looking;   // a follower is ahead of the leader (Leader.waitForEpochAck)
      }
      ackedEpoch += (m.from);
      toSync[m.from] = m.lastZxid;
      if (sizeof(ackedEpoch) < quorum) {
        return;
      }
      currentEpoch = newEpoch;
      foreach (j in keys(toSync)) {
        SyncFollower(j, toSync[j]);
      }
      toSync = default(map[int, tZxid]);
    }
    on eAckNewLeader do (m: tEpochMsg) {
      var j: int;
      if (m.epoch != newEpoch || !Current(m.from, m.conn) || !(m.from in forwarding)) {
        return;
      }
      newLeaderAcked += (m.from);
      if (established) {
        SendTo(m.from, eUpToDate, (from = id, conn = conns[m.from], epoch = newEpoch));
        return;
      }
      if (sizeof(newLeaderAcked) < quorum) {
        return;
      }
      established = true;
      while (delivered < sizeof(history)) {
        delivered = delivered + 1;
        announce eSpecDeliver, (server = id, pos = delivered, txn = history[delivered - 1]);
      }
      send driver, eLeading, (leader = id, epoch = newEpoch);
      foreach (j in newLeaderAcked) {
        if (j != id) {
          SendTo(j, eUpToDate, (from = id, conn = conns[j], epoch = newEpoch));
        }
      }
    }
    on eRequest do (v: int) {
      var t: tTxn;
      var j: int;
      var s: set[int];
      if (!established) {
        return;   // not serving yet; the client tries again
      }
      t = (epoch = newEpoch, counter = EpochCount(newEpoch) + 1, value = v);
      history += (sizeof(history), t);
      s += (id);
      acks[Zxid(t)] = s;
      foreach (j in forwarding) {
        SendTo(j, eProposal, (from = id, conn = conns[j], epoch = newEpoch, txn = t));
      }
      TryCommit();
    }
    on eAck do (m: tAckZxid) {
      if (m.epoch != newEpoch || !Current(m.from, m.conn) || !(m.from in forwarding) || !(m.zxid in acks)) {
        return;
      }
      acks[m.zxid] += (m.from);
      TryCommit();
    }
    on eNotification do (m: tNotification) {
      if (m.peerState == LOOKING) {
        SendTo(m.from, eNotification, Notification(LEADING));
      }
    }
    on eTimeout goto Looking;
    on eCrash goto Crashed;
    ignore ePing, eLeaderInfo, eSync, eNewLeader, eUpToDate, eProposal, eCommit;
  }

  state Crashed {
    ignore eNotification, eFollowerInfo, eLeaderInfo, eAckEpoch, eSync, eNewLeader, eAckNewLeader,
           eUpToDate, eProposal, eAck, eCommit, eRequest, ePing, eTimeout, eCrash;
  }

  fun SendTo(j: int, e: event, payload: any) {
    if (viaLinks) {
      send peers[j], ePacket, (ev = e, payload = payload);
    } else {
      send peers[j], e, payload;
    }
  }

  fun Zxid(t: tTxn) : tZxid {
    return (epoch = t.epoch, counter = t.counter);
  }

  fun LastZxid() : tZxid {
    if (sizeof(history) == 0) {
      return (epoch = 0, counter = 0);
    }
    return Zxid(history[sizeof(history) - 1]);
  }

  fun ZxidLess(a: tZxid, b: tZxid) : bool {
    return a.epoch < b.epoch || (a.epoch == b.epoch && a.counter < b.counter);
  }

  fun EpochCount(e: int) : int {
    var t: tTxn;
    var c: int;
    foreach (t in history) {
      if (t.epoch == e) {
        c = c + 1;
      }
    }
    return c;
  }

  /* Election. */
  fun MyVote() : tVote {
    return (leader = id, epoch = currentEpoch, zxid = LastZxid());
  }

  /* FastLeaderElection.totalOrderPredicate: epoch, then zxid, then id. */
  fun Better(a: tVote, b: tVote) : bool {
    return a.epoch > b.epoch
        || (a.epoch == b.epoch && (ZxidLess(b.zxid, a.zxid)
        || (a.zxid == b.zxid && a.leader > b.leader)));
  }

  fun Notification(s: tPeerState) : tNotification {
    if (s == LOOKING) {
      return (from = id, vote = vote, round = round, peerState = s);
    }
    return (from = id, vote = (leader = leader, epoch = currentEpoch, zxid = LastZxid()), round = round, peerState = s);
  }

  fun BroadcastVote() {
    var j: int;
    foreach (j in keys(peers)) {
      SendTo(j, eNotification, Notification(LOOKING));
    }
  }

  fun Supporters(l: int) : int {
    var j: int;
    var c: int;
    foreach (j in keys(votes)) {
      if (votes[j].leader == l) {
        c = c + 1;
      }
    }
    return c;
  }

  fun Followers(l: int) : int {
    var j: int;
    var c: int;
    foreach (j in keys(outOfElection)) {
      if (outOfElection[j] == l) {
        c = c + 1;
      }
    }
    return c;
  }

  fun Decide(l: int) {
    leader = l;
    if (l == id) {
      goto Leading;
    }
    goto Following;
  }

  /* Following. */
  fun FromLeader(from: int, c: int, epoch: int) : bool {
    return from == leader && c == conn && epoch == leaderEpoch;
  }

  /* Appends a proposal to the log and acknowledges it. (Only the proposals
     of the synchronization go through the log writer: that is where its
     concurrency with the main thread matters, ZOOKEEPER-4394; a broadcast
     proposal is acknowledged by the main thread, which keeps the state
     spaces small.) */
  fun Log(t: tTxn) {
    history += (sizeof(history), t);
    SendTo(leader, eAck, (from = id, conn = conn, epoch = leaderEpoch, zxid = Zxid(t)));
  }

  fun DeliverCommitted() {
    while (delivered < sizeof(history) && !ZxidLess(commitZxid, Zxid(history[delivered]))) {
      delivered = delivered + 1;
      announce eSpecDeliver, (server = id, pos = delivered, txn = history[delivered - 1]);
    }
  }

  /* Removes the transactions after zxid z (a TRUNC). */
  fun Truncate(z: tZxid) {
    var keep: int;
    var removed: seq[tTxn];
    while (keep < sizeof(history) && !ZxidLess(z, Zxid(history[keep]))) {
      keep = keep + 1;
    }
    while (sizeof(history) > keep) {
      removed += (sizeof(removed), history[keep]);
      history -= (keep);
    }
    if (sizeof(removed) > 0) {
      announce eSpecTruncate, (server = id, from = keep + 1, removed = removed);
    }
    if (delivered > keep) {
      delivered = keep;
    }
  }

  /* Leading. */
  fun Current(f: int, c: int) : bool {
    return f in conns && conns[f] == c;
  }

  fun SyncFollower(j: int, peerLast: tZxid) {
    var committedEnd: int;
    var lastCommitted: tZxid;
    var idx: int;
    var found: bool;
    var trunc: bool;
    var truncTo: tZxid;
    var diff: seq[tTxn];
    var outstanding: seq[tTxn];
    var i: int;
    // what the follower gets as committed: the whole log while the epoch
    // is being established, the committed prefix once it is
    committedEnd = sizeof(history);
    if (established) {
      committedEnd = delivered;
    }
    lastCommitted = (epoch = 0, counter = 0);
    if (committedEnd > 0) {
      lastCommitted = Zxid(history[committedEnd - 1]);
    }
    // the follower's last zxid in the leader's log
    if (peerLast == (epoch = 0, counter = 0)) {
      found = true;
    }
    while (!found && idx < committedEnd) {
      if (Zxid(history[idx]) == peerLast) {
        found = true;
      }
      idx = idx + 1;
    }
    if (!found) {
      idx = 0;
      if (ZxidLess(lastCommitted, peerLast)) {
        // the follower is ahead: TRUNC to the leader's last transaction
        trunc = true;
        truncTo = lastCommitted;
        idx = committedEnd;
      } else if (bug == ZAB_DIFF_WITHOUT_TRUNC) {
        // BUG DiffWithoutTrunc: the follower's last zxid lies within the
        // leader's log (minCommittedLog <= peerLastZxid <= maxCommittedLog),
        // so the leader sends a DIFF of the transactions after it, without
        // checking that it has that zxid itself: the follower keeps a
        // transaction that was never committed (ZOOKEEPER-1154).
        while (idx < committedEnd && !ZxidLess(peerLast, Zxid(history[idx]))) {
          idx = idx + 1;
        }
      } else {
        // TRUNC to the last transaction the leader has before peerLast
        trunc = true;
        while (idx < committedEnd && ZxidLess(Zxid(history[idx]), peerLast)) {
          idx = idx + 1;
        }
        truncTo = (epoch = 0, counter = 0);
        if (idx > 0) {
          truncTo = Zxid(history[idx - 1]);
        }
      }
    }
    i = idx;
    while (i < committedEnd) {
      diff += (sizeof(diff), history[i]);
      i = i + 1;
    }
    while (i < sizeof(history)) {
      outstanding += (sizeof(outstanding), history[i]);
      i = i + 1;
    }
    SendTo(j, eSync, (from = id, conn = conns[j], epoch = newEpoch, trunc = trunc, truncTo = truncTo, diff = diff, outstanding = outstanding));
    SendTo(j, eNewLeader, (from = id, conn = conns[j], epoch = newEpoch));
    forwarding += (j);
  }

  /* Commits, in zxid order, the proposals a quorum logged. */
  fun TryCommit() {
    var z: tZxid;
    var j: int;
    while (delivered < sizeof(history)) {
      z = Zxid(history[delivered]);
      if (!(z in acks) || sizeof(acks[z]) < quorum) {
        return;
      }
      delivered = delivered + 1;
      acks -= (z);
      announce eSpecDeliver, (server = id, pos = delivered, txn = history[delivered - 1]);
      send driver, eCommitted, history[delivered - 1].value;
      foreach (j in forwarding) {
        SendTo(j, eCommit, (from = id, conn = conns[j], epoch = newEpoch, zxid = z));
      }
    }
  }
}
