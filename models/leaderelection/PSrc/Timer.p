/* A one-shot timer, armed when it is created: it may fire at any moment
   until it is cancelled, and halts after firing or being cancelled. A
   cancel can cross a timeout already on its way, so the owner must expect
   a timeout after cancelling. */
event eCancelTimer;
event eTimeOut;

machine Timer {
  var owner: machine;

  start state Armed {
    entry (o: machine) {
      owner = o;
    }
    on eCancelTimer do {
      raise halt;
    }
    on null do {
      send owner, eTimeOut;
      raise halt;
    }
  }
}
