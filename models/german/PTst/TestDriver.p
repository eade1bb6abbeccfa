/* Test drivers: a home and N client caches, each with a budget of
   operations, running the correct protocol or one seeded bug. */
machine TwoCaches {
  start state Init {
    entry { SetUpGerman((numClients = 2, numOps = 3, bug = G_NONE)); }
  }
}

machine ThreeCaches {
  start state Init {
    entry { SetUpGerman((numClients = 3, numOps = 3, bug = G_NONE)); }
  }
}

machine BugEarlyGrant {
  start state Init {
    entry { SetUpGerman((numClients = 2, numOps = 3, bug = G_EARLY_GRANT)); }
  }
}

machine BugAckDataLost {
  start state Init {
    entry { SetUpGerman((numClients = 2, numOps = 3, bug = G_ACK_DATA_LOST)); }
  }
}

machine BugStaleUpgrade {
  start state Init {
    entry { SetUpGerman((numClients = 2, numOps = 3, bug = G_STALE_UPGRADE)); }
  }
}

machine BugInvUnhandled {
  start state Init {
    entry { SetUpGerman((numClients = 2, numOps = 3, bug = G_INV_UNHANDLED)); }
  }
}

machine BugSelfInv {
  start state Init {
    entry { SetUpGerman((numClients = 2, numOps = 3, bug = G_SELF_INV)); }
  }
}

fun SetUpGerman(cfg: tGermanConfig) {
  var home: Home;
  var i: int;
  home = new Home((bug = cfg.bug,));
  while (i < cfg.numClients) {
    new Cache((home = home, id = i, numOps = cfg.numOps, bug = cfg.bug));
    i = i + 1;
  }
}
