/* A client writes its key numWrites times (values 10 * id + 1, + 2, ...),
   and with readBack reads the key after each acknowledged write; a client
   with no writes reads the key once. Its own check is read-your-writes: a
   read returns the version of the client's last write or a later one. */
machine Client {
  var store: Primary;
  var id: int;
  var key: int;
  var numWrites: int;
  var readBack: bool;
  var nextRId: int;
  var written: int;      // writes acknowledged so far
  var myVersion: int;    // the version of the last one

  start state Init {
    entry (cfg: tClientConfig) {
      store = cfg.store;
      id = cfg.id;
      key = cfg.key;
      numWrites = cfg.numWrites;
      readBack = cfg.readBack;
      nextRId = 100 * id;
      if (numWrites == 0) {
        goto Read;
      }
      goto Write;
    }
  }

  state Write {
    entry {
      send store, eWriteReq, (client = this, key = key, val = 10 * id + written + 1, rId = nextRId);
      nextRId = nextRId + 1;
    }
    on eWriteResp do (resp: tWriteResp) {
      assert resp.key == key, format("write of key {0} acknowledged for key {1}", key, resp.key);
      assert resp.version > myVersion,
        format("client {0}: write acknowledged with version {1} after version {2}", id, resp.version, myVersion);
      myVersion = resp.version;
      written = written + 1;
      if (readBack) {
        goto Read;
      }
      NextWrite();
    }
  }

  state Read {
    entry {
      send store, eReadReq, (client = this, key = key, rId = nextRId);
      nextRId = nextRId + 1;
    }
    on eReadResp do (resp: tReadResp) {
      assert resp.version >= myVersion,
        format("client {0} wrote version {1} of key {2} and then read version {3}", id, myVersion, key, resp.version);
      NextWrite();
    }
  }

  state Done {}

  fun NextWrite() {
    if (written < numWrites) {
      goto Write;
    }
    goto Done;
  }
}
