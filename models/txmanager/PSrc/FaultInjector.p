/* The fault injector crashes nFailures of the given storage servers, at
   any time, at most one per chain, and reports each crash to the
   participant whose chain it is in (its failure detector). The crashed server stops when it takes the
   crash message from its inbox: it may still finish the work queued
   before it. */
event eNextFailure;

machine FaultInjector {
  var servers: map[StorageServer, Participant];
  var nFailures: int;

  start state Init {
    entry (cfg: (servers: map[StorageServer, Participant], nFailures: int)) {
      servers = cfg.servers;
      nFailures = cfg.nFailures;
      goto Injecting;
    }
  }

  state Injecting {
    entry {
      var s: StorageServer;
      var t: StorageServer;
      if (nFailures == 0) { raise halt; }
      s = choose(keys(servers));
      send s, eCrash;
      send servers[s], eStorageFailure, s;
      // at most one failure per chain: forget the other servers of this one
      foreach (t in keys(servers)) {
        if (servers[t] == servers[s] && t != s) { servers -= (t); }
      }
      servers -= (s);
      nFailures = nFailures - 1;
      if (nFailures == 0) { raise halt; }
      send this, eNextFailure;
    }
    on eNextFailure goto Injecting;
  }
}
