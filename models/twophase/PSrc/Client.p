/* A client issues write transactions and, when no participant can fail,
   reads back what it wrote (a read sent to a failed participant would never
   be answered). */
machine Client {
  var coordinator: Coordinator;
  var currTransaction: tTrans;
  var N: int;
  var id: int;
  var readBack: bool;

  start state Init {
    entry (payload: (coordinator: Coordinator, n: int, id: int, readBack: bool)) {
      coordinator = payload.coordinator;
      N = payload.n;
      id = payload.id;
      readBack = payload.readBack;
      goto SendWriteTransaction;
    }
  }

  state SendWriteTransaction {
    entry {
      currTransaction = ChooseRandomTransaction(id * 100 + N);
      send coordinator, eWriteTransReq, (client = this, trans = currTransaction);
    }
    on eWriteTransResp goto ConfirmTransaction;
  }

  state ConfirmTransaction {
    entry (writeResp: tWriteTransResp) {
      if (writeResp.status == SUCCESS && readBack) {
        send coordinator, eReadTransReq, (client = this, key = currTransaction.key);
        receive {
          case eReadTransResp: (readResp: tReadTransResp) {
            assert readResp.key == currTransaction.key && readResp.val == currTransaction.val,
              format("Record read is not same as what was written by the client:: read - {0}, written - {1}",
                     readResp.val, currTransaction.val);
          }
        }
      }
      if (N > 0) {
        N = N - 1;
        goto SendWriteTransaction;
      }
    }
  }
}

fun ChooseRandomTransaction(uniqueId: int) : tTrans {
  return (key = format("{0}", choose(2)), val = choose(2), transId = uniqueId);
}
