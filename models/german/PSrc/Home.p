/* The home node (directory): serves one request at a time (CurCmd,
   CurClient). It invalidates the sharers (InvSet := ShrSet) when the request
   needs it, collects their acknowledgements, then grants. Requests that
   arrive meanwhile wait in the inbox (deferred). */
machine Home {
  var bug: tGermanBug;
  var curCmd: tHomeCmd;
  var curClient: Cache;
  var shrSet: set[Cache];    // caches holding a copy (S or E)
  var invSet: set[Cache];    // sharers still to invalidate for curCmd
  var exGntd: bool;          // the one member of shrSet holds it exclusively
  var memData: int;

  start state Init {
    entry (cfg: (bug: tGermanBug)) {
      bug = cfg.bug;
      goto Idle;
    }
  }

  state Idle {
    entry {
      curCmd = CMD_EMPTY;
    }
    on eReqShared do (c: Cache) {
      curCmd = CMD_REQS;
      curClient = c;
      goto Serving;
    }
    on eReqExcl do (c: Cache) {
      curCmd = CMD_REQE;
      curClient = c;
      goto Serving;
    }
    /* A write-back that arrives after the grant was sent: reachable only
       when the grant does not wait for the acknowledgements. */
    on eInvAck do (ack: tInvAck) {
      RecordAck(ack);
    }
  }

  state Serving {
    defer eReqShared, eReqExcl;
    entry {
      var c: Cache;
      invSet = shrSet;
      if (bug == G_SELF_INV && curCmd == CMD_REQE) {
        // BUG SelfInv: "the requester is about to become the owner, no need
        // to invalidate it" -- but it stays in ShrSet, and the exclusive
        // grant waits for ShrSet to empty: the home waits forever.
        invSet -= (curClient);
      }
      if (CanGrant()) {
        Grant();
        goto Idle;
      }
      if (curCmd == CMD_REQE || (curCmd == CMD_REQS && exGntd)) {
        foreach (c in invSet) {
          send c, eInv;
        }
        invSet = default(set[Cache]);
        if (bug == G_EARLY_GRANT && curCmd == CMD_REQS) {
          // BUG EarlyGrant: grant the shared copy once the invalidation of
          // the owner is on its way instead of when its acknowledgement
          // (and write-back) is in.
          Grant();
          goto Idle;
        }
      }
    }
    on eInvAck do (ack: tInvAck) {
      RecordAck(ack);
      if (CanGrant()) {
        Grant();
        goto Idle;
      }
    }
  }

  fun RecordAck(ack: tInvAck) {
    shrSet -= (ack.client);
    if (exGntd) {
      exGntd = false;
      if (bug != G_ACK_DATA_LOST) {
        memData = ack.value;
      }
      // BUG AckDataLost: the owner's write-back in the acknowledgement is
      // dropped; the memory keeps the old value.
    }
  }

  fun CanGrant() : bool {
    if (curCmd == CMD_REQS) {
      return !exGntd;
    }
    return sizeof(shrSet) == 0;
  }

  fun Grant() {
    shrSet += (curClient);
    if (curCmd == CMD_REQS) {
      send curClient, eGntS, memData;
    } else {
      exGntd = true;
      send curClient, eGntE, memData;
    }
  }
}
