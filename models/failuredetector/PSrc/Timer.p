/* A timer for the failure detector: it either fires or is cancelled. */
event eStartTimer;
event eCancelTimer;
event eTimeOut;

machine Timer {
  var client: machine;
  start state Init {
    entry (c: machine) {
      client = c;
      goto WaitForReq;
    }
  }
  state WaitForReq {
    on eStartTimer goto WaitForCancel;
    ignore eCancelTimer;
  }
  state WaitForCancel {
    on null goto WaitForReq with {
      send client, eTimeOut;
    }
    on eCancelTimer goto WaitForReq;
    defer eStartTimer;
  }
}

fun CreateTimer(client: machine) : Timer { return new Timer(client); }
fun StartTimer(timer: Timer) { send timer, eStartTimer; }
fun CancelTimer(timer: Timer) { send timer, eCancelTimer; }
