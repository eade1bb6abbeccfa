/* A chain server (section 2 and 3 of the paper). The head orders client
   updates; every server applies an update, keeps it in its Sent list and
   forwards it to its successor; the tail applies it, answers the client and
   acknowledges it up the chain, where each server drops what is
   acknowledged from its Sent list. Queries go to the tail.

   When a middle server fails, the master tells its successor S+ its new
   predecessor S- (S+ answers with the last sequence number it has), then
   tells S- its new successor and that number: S- resends the updates of its
   Sent list that S+ lacks, the ones that were in flight to or inside the
   failed server. A server takes forwards and acknowledgements only from its
   current predecessor and successor: the master may remove a server that is
   only slow, and what it still sends must not count. */
machine Server {
  var id: int;
  var bug: tCrBug;
  var master: machine;
  var client: machine;
  var peers: map[int, machine]; // each other server, or the link to it
  var viaLinks: bool;
  var pred: int;                // 0: this is the head
  var succ: int;                // 0: this is the tail
  var hist: seq[tEntry];        // the updates applied, in order
  var unacked: seq[tEntry];     // the Sent list: forwarded, not yet acknowledged by the tail

  start state Init {
    entry (s: (id: int, bug: tCrBug, master: machine, client: machine, pred: int, succ: int)) {
      id = s.id;
      bug = s.bug;
      master = s.master;
      client = s.client;
      pred = s.pred;
      succ = s.succ;
    }
    on eConnect goto Serving with (c: (peers: map[int, machine], viaLinks: bool)) {
      peers = c.peers;
      viaLinks = c.viaLinks;
    }
  }

  state Serving {
    on eClientUpdate do (u: tUpdate) {
      if (pred == 0) {
        Process((sn = LastSn() + 1, upd = u));
      }
    }
    on eForward do (m: (from: int, ent: tEntry)) {
      // BUG NoFence: a forward is taken from whoever sends it, so one from a
      // removed server, delivered late, is applied a second time.
      if (m.from == pred || bug == CR_NO_FENCE) {
        Process(m.ent);
      }
    }
    on eAck do (m: (from: int, sn: int)) {
      if (m.from == succ) {
        Acked(m.sn);
      }
    }
    on eQuery do (qid: int) {
      if (succ == 0) {
        send client, eQueryResp, (qid = qid, lastSn = LastSn());
      }
    }
    on eNewPred do (p: int) {
      pred = p;
      send master, eNewPredAck, (server = id, lastSn = LastSn());
    }
    on eNewSucc do (m: (succ: int, lastSn: int)) {
      var e: tEntry;
      succ = m.succ;
      // BUG NoResend: the updates in flight to the removed server are lost.
      if (bug != CR_NO_RESEND) {
        foreach (e in unacked) {
          if (e.sn > m.lastSn) {
            SendTo(succ, eForward, (from = id, ent = e));
          }
        }
      }
    }
    on eBecomeHead do {
      pred = 0;
    }
    on eBecomeTail do {
      var e: tEntry;
      succ = 0;
      // the updates the old tail may not have answered
      foreach (e in unacked) {
        send client, eUpdateAck, (op = e.upd.op, sn = e.sn);
      }
      if (sizeof(unacked) > 0) {
        Acked(unacked[sizeof(unacked) - 1].sn);
      }
    }
    on eCrash do {
      raise halt;
    }
  }

  // Applies an update and passes it on (the tail answers the client).
  fun Process(e: tEntry) {
    hist += (sizeof(hist), e);
    announce eSpecApplied, (server = id, ent = e);
    if (succ == 0) {
      send client, eUpdateAck, (op = e.upd.op, sn = e.sn);
      if (pred != 0) {
        SendTo(pred, eAck, (from = id, sn = e.sn));
      }
    } else {
      unacked += (sizeof(unacked), e);
      SendTo(succ, eForward, (from = id, ent = e));
    }
  }

  // Everything up to sn is at the tail: drop it from Sent, tell the
  // predecessor.
  fun Acked(sn: int) {
    while (sizeof(unacked) > 0 && unacked[0].sn <= sn) {
      unacked -= (0);
    }
    if (pred != 0) {
      SendTo(pred, eAck, (from = id, sn = sn));
    }
  }

  fun LastSn() : int {
    if (sizeof(hist) == 0) {
      return 0;
    }
    return hist[sizeof(hist) - 1].sn;
  }

  fun SendTo(p: int, e: event, payload: any) {
    if (viaLinks) {
      send peers[p], ePacket, (ev = e, payload = payload);
    } else {
      send peers[p], e, payload;
    }
  }
}

// The driver -> a server: how to reach the others (links, or directly,
// each server's inbox then being one FIFO channel from all the others).
event eConnect : (peers: map[int, machine], viaLinks: bool);
