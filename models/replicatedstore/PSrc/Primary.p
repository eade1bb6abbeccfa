/* The primary: orders the writes (a write's version is its position in the
   log), lets the replicas pull the log, and acknowledges a write once every
   replica holds it. Reads are served by the replicas: the primary hands
   each read to one replica, any of them, picked by index in its set of
   replicas.

   Replication is pull-based: each replica keeps one fetch out at a time,
   reporting how much of the log it has applied (`eFetch`); the primary
   answers with the entries after that point. The version every replica
   has reported is the commit point: every write up to it is on every
   replica and has been acknowledged. A read handed to a replica after a
   write was acknowledged therefore sees that write (or a later one).

   While some write is not yet committed, the primary answers every fetch
   at once, with no entries if the replica has them all: the replica
   fetches again, and its next fetch may be the one that lets the write
   commit. When everything is committed and a replica has it all, its
   fetch is parked (a long poll) until the next write arrives. */
machine Primary {
  var replicas: set[Replica];
  var log: seq[tEntry];               // version v is log[v - 1]
  var applied: map[Replica, int];     // the version each replica reported last
  var committed: int;                 // every version up to this one is on every replica
  var waiting: map[int, tWriteReq];   // version -> write not yet acknowledged
  var parked: set[Replica];           // replicas whose fetch waits for the next write
  var bug: tStoreBug;

  start state Init {
    entry (cfg: tStoreConfig) {
      var i: int;
      var r: Replica;
      bug = cfg.bug;
      while (i < cfg.numReplicas) {
        r = new Replica((primary = this, bug = cfg.bug));
        replicas += (r);
        applied[r] = 0;
        i = i + 1;
      }
      goto Starting;
    }
  }

  /* The store serves once every replica has registered: its first fetch
     (applied = 0, nothing to send yet) is parked. */
  state Starting {
    defer eWriteReq, eReadReq;

    on eFetch do (fetch: (replica: Replica, applied: int)) {
      parked += (fetch.replica);
      if (sizeof(parked) == sizeof(replicas)) {
        goto Serving;
      }
    }
  }

  state Serving {
    on eWriteReq do (req: tWriteReq) {
      var i: int;
      log += (sizeof(log), (version = sizeof(log) + 1, key = req.key, val = req.val));
      waiting[sizeof(log)] = req;
      // the parked fetches get the new entry
      while (i < sizeof(parked)) {
        send parked[i], eFetchResp, EntriesAfter(applied[parked[i]]);
        i = i + 1;
      }
      parked = default(set[Replica]);
    }

    on eReadReq do (req: tReadReq) {
      // any replica may serve a read
      send replicas[choose(sizeof(replicas))], eReplicaRead, req;
    }

    on eFetch do (fetch: (replica: Replica, applied: int)) {
      var entries: seq[tEntry];
      applied[fetch.replica] = fetch.applied;
      entries = EntriesAfter(fetch.applied);
      if (bug == STORE_ACK_ON_DATA) {
        // BUG AckOnData: the commit point is recomputed only when a fetch
        // has entries to carry back ("an empty fetch changes nothing"). But
        // the fetch after a replica applied the last write is empty, and it
        // is the one that reports the write applied: the last writes are
        // never acknowledged, while the replicas keep fetching.
        if (sizeof(entries) > 0) {
          AdvanceCommitted();
        }
      } else {
        AdvanceCommitted();
      }
      if (sizeof(entries) == 0 && committed == sizeof(log)) {
        parked += (fetch.replica);
      } else {
        send fetch.replica, eFetchResp, entries;
      }
    }
  }

  /* The entries of the log after version v. */
  fun EntriesAfter(v: int) : seq[tEntry] {
    var entries: seq[tEntry];
    var i: int;
    i = v;
    while (i < sizeof(log)) {
      entries += (sizeof(entries), log[i]);
      i = i + 1;
    }
    return entries;
  }

  /* Move the commit point up to the lowest version the replicas reported,
     acknowledging each write passed on the way. */
  fun AdvanceCommitted() {
    var i: int;
    var lowest: int;
    var req: tWriteReq;

    lowest = sizeof(log);
    if (bug == STORE_SKIP_REPLICA) {
      // BUG SkipReplica: the scan once started from replicas[0]'s version
      // and compared the others from index 1; the start value was changed
      // to the log's end, the start index was not. replicas[0] is never
      // waited for: a read it serves after an acknowledged write may miss
      // that write.
      i = 1;
    }
    while (i < sizeof(replicas)) {
      if (applied[replicas[i]] < lowest) {
        lowest = applied[replicas[i]];
      }
      i = i + 1;
    }
    while (committed < lowest) {
      committed = committed + 1;
      req = waiting[committed];
      waiting -= (committed);
      send req.client, eWriteResp, (rId = req.rId, key = req.key, version = committed);
    }
  }
}
