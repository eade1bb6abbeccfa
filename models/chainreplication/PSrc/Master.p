/* The master: bootstraps the chain, learns of failures from the failure
   detector (here: the fault injector's notifications), and reconfigures.
   - head failed: its successor becomes the head;
   - tail failed: its predecessor becomes the tail and acknowledges what it
     had forwarded;
   - a middle server failed: two steps, as in the paper. The successor is
     told its new predecessor and answers with the last update it has; then
     the predecessor is told its new successor and resends what is missing.
   One relink at a time: other failures wait, except the failure of the
   successor being asked, which restarts the relink one server further. */
machine Master {
  var bug: tBug;
  var chain: seq[Server];
  var clients: seq[Client];
  var injector: FaultInjector;
  var relinking: bool;
  var epoch: int;
  var relinkPred: Server;
  var relinkSucc: Server;
  var queued: seq[Server];

  start state Init {
    entry (cfg: (clients: seq[Client], bug: tBug)) {
      clients = cfg.clients;
      bug = cfg.bug;
      announce eRole, (m = this, role = ROLE_MASTER);
    }
    on eConfigure goto Booting with (c: (chain: seq[Server], injector: FaultInjector)) {
      chain = c.chain;
      injector = c.injector;
    }
  }

  // Bootstrap: the head passes the configuration down the chain, the tail
  // confirms it.
  state Booting {
    entry {
      send chain[0], eSetup, (chain = chain, index = 0);
      if (bug == BOOTCRASH) {
        // BUG BootCrash: the master starts the clients and the failure
        // detection as soon as it has sent the configuration, not when the
        // tail has confirmed it: a server can be told to crash before it is
        // configured, in a state that does not expect it.
        StartSystem();
      }
    }
    on eSetupDone goto Ready with {
      if (bug != BOOTCRASH) { StartSystem(); }
    }
    defer eFailure;
  }

  state Ready {
    on eFailure do (f: Server) {
      if (relinking) {
        if (f == relinkSucc && bug != NEIGHBOURS) {
          // The server we are waiting for failed too: relink one further.
          relinking = false;
          HandleFailure(f);
        } else {
          // BUG Neighbours: every failure is queued while a relink is in
          // progress, also that of the successor whose answer the relink
          // waits for. When two neighbouring servers fail, the answer never
          // comes, and the chain stays broken.
          queued += (sizeof(queued), f);
        }
        return;
      }
      HandleFailure(f);
    }

    on eNewPredAck do (a: (server: Server, epoch: int, lastSeq: int)) {
      if (bug == STALEACK) {
        // BUG StaleAck: the master checks that the answer comes from the
        // server it asked last, not that it belongs to the current relink:
        // the late answer of a successor that failed during the relink
        // completes a relink that was abandoned.
        if (a.server != relinkSucc) { return; }
      } else if (!relinking || a.epoch != epoch) {
        return;   // the answer to an abandoned relink
      }
      relinking = false;
      send relinkPred, eNewSucc, (succ = relinkSucc, lastSeq = a.lastSeq);
      while (!relinking && sizeof(queued) > 0) {
        HandleFailure(queued[0]);
        queued -= (0);
      }
    }
  }

  fun StartSystem() {
    var c: Client;
    announce eInitDone;
    foreach (c in clients) {
      send c, eStart, (head = chain[0], tail = chain[sizeof(chain) - 1]);
    }
    send injector, eStart, (head = chain[0], tail = chain[sizeof(chain) - 1]);
  }

  fun HandleFailure(f: Server) {
    var i: int;
    i = 0;
    while (i < sizeof(chain) && chain[i] != f) { i = i + 1; }
    assert i < sizeof(chain), "failure of a server that is not in the chain";
    chain -= (i);
    assert sizeof(chain) > 0, "every server failed";
    if (i == 0) {
      send chain[0], eBecomeHead;
      NotifyClients();
    } else if (i == sizeof(chain)) {
      send chain[i - 1], eBecomeTail;
      NotifyClients();
    } else {
      epoch = epoch + 1;
      relinking = true;
      relinkPred = chain[i - 1];
      relinkSucc = chain[i];
      send relinkSucc, eNewPred, (pred = relinkPred, epoch = epoch);
    }
  }

  fun NotifyClients() {
    var c: Client;
    foreach (c in clients) {
      send c, eChainChanged, (head = chain[0], tail = chain[sizeof(chain) - 1]);
    }
  }
}
