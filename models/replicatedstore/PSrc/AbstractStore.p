/* The abstract store: one machine with the primary's interface that keeps
   the data itself and answers every request at once. It is what the
   clients expect of the replicated store (a write is acknowledged with its
   version; a read sees every write acknowledged before it), without the
   replicas and the log. Bound to the interface Primary
   (module SingleNodeStore), it checks the clients and the specs alone, at
   a fraction of the states. */
machine AbstractStore {
  var store: map[int, tVersioned];
  var version: int;

  start state Serving {
    entry (cfg: tStoreConfig) {
      // one node: the number of replicas and the seeded bugs do not apply
    }

    on eWriteReq do (req: tWriteReq) {
      version = version + 1;
      store[req.key] = (val = req.val, version = version);
      send req.client, eWriteResp, (rId = req.rId, key = req.key, version = version);
    }

    on eReadReq do (req: tReadReq) {
      var cur: tVersioned;
      if (req.key in store) {
        cur = store[req.key];
      }
      send req.client, eReadResp, (rId = req.rId, key = req.key, val = cur.val, version = cur.version);
    }
  }
}
