/* The device: carries out one command at a time, in the order received.
   A command ends either done (the device executed it) or aborted (the
   driver's abort reached the device before it executed it); the device
   acknowledges every abort, also one for a command that is already done,
   with an aborted record. Records go out through the interrupt line in
   order, so a command's done record precedes the acknowledgement of its
   abort. The device checks the open/close discipline the driver must keep. */
machine Device {
  var irq: IrqLine;
  var opened: bool;
  var cur: tDevCmd;

  start state Init {
    entry (line: IrqLine) {
      irq = line;
      goto Ready;
    }
  }

  state Ready {
    on eDevCommand goto Working;
    on eDevAbort do (t: int) {
      // the command already ended: acknowledge only
      send irq, eIrq, (tag = t, reqId = -1, aborted = true);
    }
  }

  state Working {
    defer eDevCommand;
    entry (c: tDevCmd) {
      cur = c;
    }
    on eDevAbort do (t: int) {
      send irq, eIrq, (tag = t, reqId = -1, aborted = true);
      if (t == cur.tag) {
        goto Ready;   // dropped before execution
      }
    }
    // nothing in the inbox: the device executes the command
    on null do {
      Execute(cur);
      send irq, eIrq, (tag = cur.tag, reqId = cur.reqId, aborted = false);
      goto Ready;
    }
  }

  fun Execute(c: tDevCmd) {
    if (c.op == OP_RESET) {
      opened = false;
    } else if (c.op == OP_OPEN) {
      assert !opened, format("request {0}: open of an open device", c.reqId);
      opened = true;
    } else if (c.op == OP_CLOSE) {
      assert opened, format("request {0}: close of a closed device", c.reqId);
      opened = false;
    } else {
      assert opened, format("request {0}: data transfer on a closed device", c.reqId);
    }
    announce eSpecDevExecuted, c.reqId;
  }
}

/* The interrupt line: delivers the device's records to the driver, in
   order, whenever it gets to run. */
machine IrqLine {
  var driver: Driver;

  start state Init {
    entry (d: Driver) {
      driver = d;
      goto Delivering;
    }
  }

  state Delivering {
    on eIrq do (r: tIrq) {
      send driver, eDevInterrupt, r;
    }
  }
}
