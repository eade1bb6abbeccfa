/* A replica: pulls the log from the primary, one fetch out at a time, and
   applies its entries in order; serves the reads the primary hands it from
   what it has applied. A key never written reads as value 0, version 0. */
machine Replica {
  var primary: Primary;
  var store: map[int, tVersioned];
  var appliedUpTo: int;
  var bug: tStoreBug;

  start state Init {
    entry (cfg: tReplicaConfig) {
      primary = cfg.primary;
      bug = cfg.bug;
      send primary, eFetch, (replica = this, applied = 0);
      goto Following;
    }
  }

  state Following {
    on eFetchResp do (entries: seq[tEntry]) {
      var i: int;
      while (i < sizeof(entries)) {
        assert entries[i].version == appliedUpTo + 1,
          format("replica got version {0} after {1}", entries[i].version, appliedUpTo);
        store[entries[i].key] = (val = entries[i].val, version = entries[i].version);
        appliedUpTo = entries[i].version;
        i = i + 1;
      }
      if (bug == STORE_IDLE_STOP && sizeof(entries) == 0) {
        // BUG IdleStop: a replica whose fetch came back empty stops
        // fetching, "the primary will tell us when there is more". The
        // primary only ever answers fetches: a write that arrives after a
        // replica went idle never reaches it and is never acknowledged.
        goto Idle;
      }
      send primary, eFetch, (replica = this, applied = appliedUpTo);
    }

    on eReplicaRead do (req: tReadReq) {
      ServeRead(req);
    }
  }

  /* Reached only with BUG IdleStop. */
  state Idle {
    on eReplicaRead do (req: tReadReq) {
      ServeRead(req);
    }
  }

  fun ServeRead(req: tReadReq) {
    var cur: tVersioned;
    if (req.key in store) {
      cur = store[req.key];
    }
    send req.client, eReadResp, (rId = req.rId, key = req.key, val = cur.val, version = cur.version);
  }
}
