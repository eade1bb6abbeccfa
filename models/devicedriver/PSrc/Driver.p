/* The driver. It first resets the device and waits for the reset to
   complete (requests wait in the inbox meanwhile). Idle: it takes the next OS request and issues its command to
   the device with the next tag (tags count modulo numTags, a small
   hardware field); a read or write also starts the watchdog timer. Busy:
   the command's done record completes the request; a timeout, or the OS
   cancelling the request, aborts the command and completes the request as
   cancelled at once. Aborting: the driver waits for the device to
   acknowledge the abort; the command's own done record may still arrive
   first (it crossed the abort) and is dropped. Requests that arrive
   meanwhile wait in the driver's queue. */
machine Driver {
  var bug: tDdBug;
  var numTags: int;
  var device: Device;
  var irq: IrqLine;
  var timer: Timer;
  var opened: bool;          // the device is open, as far as the driver knows
  var tag: int;              // tag of the command in progress (or the last one)
  var cur: tOsReq;           // the request in progress
  var queued: seq[tOsReq];   // requests that arrived while aborting

  start state Init {
    entry (cfg: (numTags: int, bug: tDdBug)) {
      numTags = cfg.numTags;
      bug = cfg.bug;
      irq = new IrqLine(this);
      device = new Device(irq);
      timer = new Timer(this);
      send device, eDevCommand, (tag = tag, reqId = 0, op = OP_RESET);
      goto Starting;
    }
  }

  state Starting {
    defer eOsRequest;
    on eDevInterrupt do (i: tIrq) {
      assert i.tag == tag && !i.aborted, format("unexpected record {0} during the reset", i);
      goto Idle;
    }
  }

  state Idle {
    entry {
      var r: tOsReq;
      if (sizeof(queued) > 0) {
        r = queued[0];
        queued -= (0);
        Issue(r);
        goto Busy;
      }
    }
    on eOsRequest goto Busy with (r: tOsReq) {
      Issue(r);
    }
    // a cancel that crossed the completion: nothing left to cancel
    on eOsCancel do (id: int) {
      assert id == cur.id, format("cancel of request {0}, which the driver never saw", id);
    }
    // a timer cancelled after it fired
    ignore eTimeOut;
    // a record of an earlier command (only a driver that does not wait for
    // abort acknowledgements leaves any behind)
    ignore eDevInterrupt;
  }

  state Busy {
    on eDevInterrupt do (i: tIrq) {
      if (i.tag != tag || i.aborted) {
        return;       // a record of an earlier command
      }
      if (IsData(cur.op)) {
        send timer, eCancelTimer;
      }
      if (cur.op == OP_OPEN) {
        opened = true;
      }
      if (cur.op == OP_CLOSE) {
        opened = false;
      }
      Complete(ST_SUCCESS);
      goto Idle;
    }
    on eTimeOut do (t: int) {
      if (t != tag) {
        return;       // the timer of an earlier command
      }
      Abort();
      if (bug == D_TAG_WRAP) {
        // BUG TagWrap: "no need to wait for the abort acknowledgement, a
        // late record carries an old tag and is dropped" -- until the tag
        // counter wraps around.
        goto Idle;
      }
      goto Aborting;
    }
    on eOsCancel do (id: int) {
      if (id != cur.id) {
        return;       // crossed the completion of an earlier request
      }
      if (bug != D_TIMER_RESTART) {
        send timer, eCancelTimer;
      }
      // BUG TimerRestart: the cancel path leaves the watchdog pending; the
      // next transfer starts it again while it is still armed.
      Abort();
      goto Aborting;
    }
  }

  state Aborting {
    on eDevInterrupt do (i: tIrq) {
      if (i.tag != tag) {
        return;
      }
      if (i.aborted) {
        goto Idle;    // the device has let go of the command
      }
      // the command was done before the device saw the abort: the request
      // is already completed as cancelled
      if (bug == D_DOUBLE_COMPLETE) {
        // BUG DoubleComplete: "the transfer happened after all", so the
        // request is completed again, as a success.
        Complete(ST_SUCCESS);
      }
    }
    on eOsRequest do (r: tOsReq) {
      if (bug != D_LOST_REQUEST) {
        queued += (sizeof(queued), r);
      }
      // BUG LostRequest: the abort path has no queue; the request is dropped.
    }
    // the OS cancels a request the timeout has already completed, or the
    // timeout of a cancelled request had already fired
    ignore eOsCancel, eTimeOut;
  }

  fun Issue(r: tOsReq) {
    assert (r.op == OP_OPEN) == !opened,
      format("request {0} ({1}) while the device is {2}", r.id, r.op, opened);
    cur = r;
    tag = (tag + 1) % numTags;
    send device, eDevCommand, (tag = tag, reqId = r.id, op = r.op);
    if (IsData(r.op)) {
      send timer, eStartTimer, tag;
    }
  }

  fun Abort() {
    send device, eDevAbort, tag;
    Complete(ST_CANCELLED);
  }

  fun Complete(s: tStatus) {
    send cur.client, eOsComplete, (id = cur.id, status = s);
  }
}
