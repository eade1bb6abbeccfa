/* Safety: a read sees every write acknowledged before the read was sent.
   The spec learns each write's value from the request and its version from
   the acknowledgement; when a read is sent it records the newest version of
   the key acknowledged so far, and the answer must carry that version or a
   later one, with the value written at that version.
   (This is weaker than linearizability: a read that overlaps a write may
   see it, and a later read, served by another replica, may not yet.) */
spec ReadsSeeAckedWrites observes eWriteReq, eWriteResp, eReadReq, eReadResp {
  var writeVal: map[int, int];       // rId of a write in progress -> its value
  var versionVal: map[int, int];     // version of an acknowledged write -> its value
  var newest: map[int, int];         // key -> newest version acknowledged
  var mustSee: map[int, int];        // rId of a read in progress -> the version it must see

  start state Watching {
    on eWriteReq do (req: tWriteReq) {
      writeVal[req.rId] = req.val;
    }

    on eWriteResp do (resp: tWriteResp) {
      assert resp.rId in writeVal, format("acknowledgement of unknown write {0}", resp.rId);
      assert !(resp.version in versionVal),
        format("version {0} acknowledged for two writes", resp.version);
      versionVal[resp.version] = writeVal[resp.rId];
      writeVal -= (resp.rId);
      if (!(resp.key in newest) || newest[resp.key] < resp.version) {
        newest[resp.key] = resp.version;
      }
    }

    on eReadReq do (req: tReadReq) {
      mustSee[req.rId] = 0;
      if (req.key in newest) {
        mustSee[req.rId] = newest[req.key];
      }
    }

    on eReadResp do (resp: tReadResp) {
      assert resp.rId in mustSee, format("answer to unknown read {0}", resp.rId);
      assert resp.version >= mustSee[resp.rId],
        format("read {0} of key {1} returned version {2}, but version {3} was acknowledged before the read was sent",
               resp.rId, resp.key, resp.version, mustSee[resp.rId]);
      if (resp.version in versionVal) {
        assert resp.val == versionVal[resp.version],
          format("read {0} returned value {1} for version {2}, which wrote {3}",
                 resp.rId, resp.val, resp.version, versionVal[resp.version]);
      }
      mustSee -= (resp.rId);
    }
  }
}

/* Liveness: every request, write or read, is answered. */
spec EveryRequestAnswered observes eWriteReq, eWriteResp, eReadReq, eReadResp {
  var pending: set[int];

  start cold state AllAnswered {
    on eWriteReq goto Waiting with (req: tWriteReq) { pending += (req.rId); }
    on eReadReq goto Waiting with (req: tReadReq) { pending += (req.rId); }
  }

  hot state Waiting {
    on eWriteReq do (req: tWriteReq) { pending += (req.rId); }
    on eReadReq do (req: tReadReq) { pending += (req.rId); }
    on eWriteResp do (resp: tWriteResp) { Answered(resp.rId); }
    on eReadResp do (resp: tReadResp) { Answered(resp.rId); }
  }

  fun Answered(rId: int) {
    assert rId in pending, format("request {0} answered twice, or never sent", rId);
    pending -= (rId);
    if (sizeof(pending) == 0) {
      goto AllAnswered;
    }
  }
}
