/* The coordinator: one transaction at a time. It asks every participant to
   prepare, commits when all vote yes, aborts on a no vote or a timeout. */
machine Coordinator {
  var participants: seq[Participant];
  var pendingWrTrans: tWriteTransReq;
  var currTransId: int;
  var timer: Timer;
  var countPrepareResponses: int;
  var bug: tTwoPCBug;

  start state Init {
    entry (payload: seq[Participant]) {
      var i: int;
      participants = payload;
      timer = CreateTimer(this);
      while (i < sizeof(participants)) {
        send participants[i], eInformCoordinator, this;
        i = i + 1;
      }
      goto WaitForTransactions;
    }
  }

  state WaitForTransactions {
    on eWriteTransReq do (wTrans: tWriteTransReq) {
      if (wTrans.trans.transId <= currTransId) {
        send wTrans.client, eWriteTransResp, (transId = wTrans.trans.transId, status = ERROR);
        return;
      }
      pendingWrTrans = wTrans;
      currTransId = wTrans.trans.transId;
      BroadcastToAllParticipants(ePrepareReq, wTrans.trans);
      StartTimer(timer);
      goto WaitForPrepareResponses;
    }

    on eReadTransReq do (rTrans: tReadTransReq) {
      send choose(participants), eReadTransReq, rTrans;
    }

    on eTwoPCBugConfig do (b: tTwoPCBug) {
      bug = b;
    }

    ignore ePrepareResp, eTimeOut;
  }

  state WaitForPrepareResponses {
    entry {
      countPrepareResponses = 0;
    }

    defer eWriteTransReq;

    on ePrepareResp do (resp: tPrepareResp) {
      // BUG StaleVote: the vote is counted without checking its transaction:
      // a late vote for a transaction that timed out counts for this one.
      if (currTransId == resp.transId || bug == TPC_STALE_VOTE) {
        if (resp.status == SUCCESS) {
          countPrepareResponses = countPrepareResponses + 1;
          if (countPrepareResponses == sizeof(participants)) {
            DoGlobalCommit();
            goto WaitForTransactions;
          }
        } else {
          DoGlobalAbort(ERROR);
          goto WaitForTransactions;
        }
      }
    }

    on eTimeOut goto WaitForTransactions with {
      if (bug == TPC_TIMEOUT_COMMIT && countPrepareResponses > 0) {
        // BUG TimeoutCommit: "the votes so far are all yes, the others are
        // just slow" -- commit on the timeout.
        DoGlobalCommit();
        return;
      }
      DoGlobalAbort(TIMEOUT);
    }

    on eReadTransReq do (rTrans: tReadTransReq) {
      send choose(participants), eReadTransReq, rTrans;
    }

    exit {
      CancelTimer(timer);
    }
  }

  fun DoGlobalAbort(respStatus: tTransStatus) {
    BroadcastToAllParticipants(eAbortTrans, currTransId);
    send pendingWrTrans.client, eWriteTransResp, (transId = currTransId, status = respStatus);
  }

  fun DoGlobalCommit() {
    BroadcastToAllParticipants(eCommitTrans, currTransId);
    send pendingWrTrans.client, eWriteTransResp, (transId = currTransId, status = SUCCESS);
  }

  fun BroadcastToAllParticipants(message: event, payload: any) {
    var i: int;
    while (i < sizeof(participants)) {
      send participants[i], message, payload;
      i = i + 1;
    }
  }
}
