/* Safety: every request completes exactly once, and no completion follows
   its cancellation; a request reported successful was carried out by the
   device. (The spec keeps only what later checks need: the ids completed so
   far, and which pending requests the device has carried out.) */
spec CompletedOnce observes eOsRequest, eOsComplete, eSpecDevExecuted {
  var pending: set[int];
  var completed: set[int];
  var executed: set[int];    // pending requests the device has carried out

  start state Watching {
    on eOsRequest do (r: tOsReq) {
      assert !(r.id in pending) && !(r.id in completed), format("request id {0} reused", r.id);
      pending += (r.id);
    }
    on eOsComplete do (d: tOsDone) {
      assert !(d.id in completed),
        format("request {0} completed again (with {1}) after it had completed", d.id, d.status);
      assert d.id in pending, format("completion of request {0}, which was never issued", d.id);
      assert d.status != ST_SUCCESS || d.id in executed,
        format("request {0} reported successful, but the device never carried it out", d.id);
      pending -= (d.id);
      executed -= (d.id);
      completed += (d.id);
    }
    on eSpecDevExecuted do (id: int) {
      if (id in pending) {
        executed += (id);
      }
    }
  }
}

/* Liveness: every request is eventually completed (or cancelled). */
spec EveryRequestCompletes observes eOsRequest, eOsComplete {
  var pending: int;

  start cold state NoneOutstanding {
    on eOsRequest goto Outstanding with { pending = pending + 1; }
  }

  hot state Outstanding {
    on eOsRequest do { pending = pending + 1; }
    on eOsComplete do {
      pending = pending - 1;
      if (pending == 0) {
        goto NoneOutstanding;
      }
    }
  }
}
