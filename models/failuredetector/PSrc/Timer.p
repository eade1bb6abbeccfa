/* A timer for the failure detector: it either fires or is cancelled. A
   cancel may cross the timeout: it then reaches an idle timer, which
   ignores it. */
event eStartTimer;
event eCancelTimer;
event eTimeOut;

machine Timer {
  var client: machine;
  var bug: tFDBug;
  start state Init {
    entry (config: (client: machine, bug: tFDBug)) {
      client = config.client;
      bug = config.bug;
      goto WaitForReq;
    }
  }
  state WaitForReq {
    on eStartTimer goto WaitForCancel;
    ignore eCancelTimer;
  }
  state WaitForCancel {
    on null do {
      send client, eTimeOut;
      // BUG CancelRace: once fired, the timer waits for the next start in a
      // state written as if no cancel could still be on its way.
      if (bug == FD_CANCEL_RACE) {
        goto Fired;
      }
      goto WaitForReq;
    }
    on eCancelTimer goto WaitForReq;
    defer eStartTimer;
  }
  state Fired {
    on eStartTimer goto WaitForCancel;
  }
}

fun CreateTimer(client: machine, bug: tFDBug) : Timer { return new Timer((client = client, bug = bug)); }
fun StartTimer(timer: Timer) { send timer, eStartTimer; }
fun CancelTimer(timer: Timer) { send timer, eCancelTimer; }
