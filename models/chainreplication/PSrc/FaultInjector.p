/* The fault injector crashes nFailures of the given servers, one at a time,
   at any point after it is started, and plays the failure detector: it reports
   each crash to the master at once. A crashed server stops when it takes
   the crash message from its inbox, so it may still finish the work queued
   before it (the detector reports a server that has not quite stopped). */
event eNextFailure;

machine FaultInjector {
  var master: Master;
  var alive: set[Server];
  var nFailures: int;

  start state Init {
    entry (cfg: (master: Master, servers: set[Server], nFailures: int)) {
      var s: Server;
      master = cfg.master;
      nFailures = cfg.nFailures;
      foreach (s in cfg.servers) { alive += (s); }
      assert nFailures <= sizeof(alive), "not enough servers to fail";
      announce eRole, (m = this, role = ROLE_INJECTOR);
    }
    on eStart goto Injecting;
  }

  state Injecting {
    entry {
      var s: Server;
      if (nFailures == 0) { raise halt; }
      s = choose(alive);
      alive -= (s);
      nFailures = nFailures - 1;
      send s, eCrash;
      send master, eFailure, s;
      if (nFailures == 0) { raise halt; }
      send this, eNextFailure;
    }
    on eNextFailure goto Injecting;
  }
}
