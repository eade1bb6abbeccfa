/* A client cache. With operations left it works on the line: from I it
   asks for a shared or an exclusive copy, from S it may upgrade to E, in E
   it writes a new value. It answers every invalidation at once (writing
   back its data if it held the line exclusively). */
machine Cache {
  var home: Home;
  var id: int;
  var opsLeft: int;
  var bug: tGermanBug;
  var st: tCacheState;
  var value: int;

  start state Init {
    entry (cfg: tCacheConfig) {
      home = cfg.home;
      id = cfg.id;
      opsLeft = cfg.numOps;
      bug = cfg.bug;
      goto Idle;
    }
  }

  state Idle {
    entry {
      if (opsLeft == 0) {
        return;
      }
      opsLeft = opsLeft - 1;
      if (st == CS_E) {
        value = value + 1;
        announce eSpecWrite, (client = id, value = value);
        goto Idle;
      }
      if (st == CS_S) {
        if ($) {
          send home, eReqExcl, this;
          if (bug == G_INV_UNHANDLED) {
            // BUG InvUnhandled: the upgrade reuses the wait state of a
            // request from I, where no invalidation can arrive; but a
            // sharer is invalidated before its exclusive grant.
            goto WaitGrant;
          }
          goto WaitUpgrade;
        }
        opsLeft = 0;     // keep the shared copy, done
        return;
      }
      if ($) {
        send home, eReqShared, this;
      } else {
        send home, eReqExcl, this;
      }
      goto WaitGrant;
    }
    on eInv do {
      Invalidate();
      goto Idle;
    }
  }

  /* Waiting for a grant, holding no copy: the home has no reason to send an
     invalidation here. */
  state WaitGrant {
    on eGntS do (d: int) {
      Granted(CS_S, d);
      goto Idle;
    }
    on eGntE do (d: int) {
      Granted(CS_E, d);
      goto Idle;
    }
  }

  /* Waiting for the exclusive grant of an upgrade from S: the home
     invalidates the sharers first, this cache included, and other requests
     may be served before this one. */
  state WaitUpgrade {
    on eInv do {
      Invalidate();
    }
    on eGntE do (d: int) {
      var v: int;
      v = d;
      if (bug == G_STALE_UPGRADE) {
        // BUG StaleUpgrade: "an upgrade only needs the permission, my copy
        // is current" -- true unless another cache owned the line and wrote
        // while this request was queued at the home.
        v = value;
      }
      Granted(CS_E, v);
      goto Idle;
    }
  }

  fun Invalidate() {
    var wasExcl: bool;
    wasExcl = st == CS_E;
    st = CS_I;
    announce eSpecCacheState, (client = id, st = st, value = value);
    send home, eInvAck, (client = this, value = value, wasExcl = wasExcl);
  }

  fun Granted(s: tCacheState, d: int) {
    st = s;
    value = d;
    announce eSpecCacheState, (client = id, st = st, value = value);
    announce eSpecGranted, this;
  }
}
