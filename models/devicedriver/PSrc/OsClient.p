/* The OS side: an application opens the device, does numData transfers
   (reads and writes in turn), and closes it, one request at a time. It may
   cancel a transfer right after issuing it (at most numCancels times); the
   cancel may reach the driver before or after the request completes. */
machine OsClient {
  var driver: Driver;
  var script: seq[tOp];
  var next: int;
  var cancelsLeft: int;
  var reqId: int;

  start state Init {
    entry (cfg: (driver: Driver, numData: int, numCancels: int)) {
      var i: int;
      driver = cfg.driver;
      cancelsLeft = cfg.numCancels;
      script += (0, OP_OPEN);
      while (i < cfg.numData) {
        if (i % 2 == 0) {
          script += (sizeof(script), OP_READ);
        } else {
          script += (sizeof(script), OP_WRITE);
        }
        i = i + 1;
      }
      script += (sizeof(script), OP_CLOSE);
      goto Issuing;
    }
  }

  state Issuing {
    entry {
      var op: tOp;
      if (next == sizeof(script)) {
        goto Finished;
      }
      op = script[next];
      next = next + 1;
      reqId = next;
      send driver, eOsRequest, (client = this, id = reqId, op = op);
      if (IsData(op) && cancelsLeft > 0 && $) {
        cancelsLeft = cancelsLeft - 1;
        send driver, eOsCancel, reqId;
      }
    }
    on eOsComplete do (d: tOsDone) {
      assert d.id == reqId, format("completion of request {0} while waiting for {1}", d.id, reqId);
      assert d.status == ST_SUCCESS || IsData(script[reqId - 1]),
        format("request {0} ({1}) completed with {2}", d.id, script[reqId - 1], d.status);
      goto Issuing;
    }
  }

  state Finished {
  }
}
