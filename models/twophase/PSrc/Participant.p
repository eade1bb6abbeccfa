/* A participant keeps a key-value store and votes on each prepared
   transaction; it may refuse nondeterministically. */
machine Participant {
  var kvStore: map[string, tTrans];
  var pendingWriteTrans: map[int, tTrans];
  var coordinator: Coordinator;

  start state Init {
    on eInformCoordinator goto WaitForRequests with (coor: Coordinator) {
      coordinator = coor;
    }
    defer eShutDown;
  }

  state WaitForRequests {
    on eAbortTrans do (transId: int) {
      assert transId in pendingWriteTrans,
        format("Abort request for a non-pending transaction, transId: {0}, pendingTrans set: {1}",
               transId, pendingWriteTrans);
      pendingWriteTrans -= transId;
    }

    on eCommitTrans do (transId: int) {
      assert transId in pendingWriteTrans,
        format("Commit request for a non-pending transaction, transId: {0}, pendingTrans set: {1}",
               transId, pendingWriteTrans);
      kvStore[pendingWriteTrans[transId].key] = pendingWriteTrans[transId];
      pendingWriteTrans -= transId;
    }

    on ePrepareReq do (prepareReq: tTrans) {
      assert !(prepareReq.transId in pendingWriteTrans),
        format("Duplicate transaction ids not allowed!, received transId: {0}, pending transactions: {1}",
               prepareReq.transId, pendingWriteTrans);
      pendingWriteTrans[prepareReq.transId] = prepareReq;
      if (!(prepareReq.key in kvStore) || (prepareReq.key in kvStore && prepareReq.transId > kvStore[prepareReq.key].transId)) {
        if ($) {
          send coordinator, ePrepareResp, (participant = this, transId = prepareReq.transId, status = SUCCESS);
        } else {
          send coordinator, ePrepareResp, (participant = this, transId = prepareReq.transId, status = ERROR);
        }
      } else {
        send coordinator, ePrepareResp, (participant = this, transId = prepareReq.transId, status = ERROR);
      }
    }

    on eReadTransReq do (req: tReadTransReq) {
      if (req.key in kvStore) {
        send req.client, eReadTransResp, (key = req.key, val = kvStore[req.key].val, status = SUCCESS);
      } else {
        send req.client, eReadTransResp, (key = "", val = -1, status = ERROR);
      }
    }

    on eShutDown do {
      raise halt;
    }
  }
}
