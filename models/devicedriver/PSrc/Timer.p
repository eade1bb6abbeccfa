/* The driver's watchdog timer. Once started it may fire at any moment
   until it is cancelled; a timeout carries the tag it was started with.
   Like a kernel one-shot timer, it must not be started again while it is
   pending (cancel it first); a cancel that crosses a timeout already on its
   way is ignored. */
event eStartTimer : int;
event eCancelTimer;
event eTimeOut : int;

machine Timer {
  var owner: machine;
  var tag: int;

  start state Init {
    entry (o: machine) {
      owner = o;
      goto Stopped;
    }
  }

  state Stopped {
    on eStartTimer goto Armed with (t: int) {
      tag = t;
    }
    ignore eCancelTimer;
  }

  state Armed {
    on eCancelTimer goto Stopped;
    on null do {
      send owner, eTimeOut, tag;
      goto Stopped;
    }
  }
}
