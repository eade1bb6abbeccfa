/* Test drivers: an OS client and a driver (which creates its device,
   interrupt line and timer), with the correct driver or one seeded bug. */
machine TwoTransfers {
  start state Init {
    entry { SetUpDriver((numData = 2, numCancels = 1, numTags = 4, bug = D_NONE)); }
  }
}

machine FiveTransfers {
  start state Init {
    entry { SetUpDriver((numData = 5, numCancels = 0, numTags = 4, bug = D_NONE)); }
  }
}

machine ManyTransfers {
  start state Init {
    entry { SetUpDriver((numData = 20, numCancels = 0, numTags = 2, bug = D_NONE)); }
  }
}

machine BugDoubleComplete {
  start state Init {
    entry { SetUpDriver((numData = 2, numCancels = 1, numTags = 4, bug = D_DOUBLE_COMPLETE)); }
  }
}

machine BugTagWrap {
  start state Init {
    entry { SetUpDriver((numData = 20, numCancels = 0, numTags = 2, bug = D_TAG_WRAP)); }
  }
}

machine BugLostRequest {
  start state Init {
    entry { SetUpDriver((numData = 2, numCancels = 1, numTags = 4, bug = D_LOST_REQUEST)); }
  }
}

machine BugTimerRestart {
  start state Init {
    entry { SetUpDriver((numData = 2, numCancels = 1, numTags = 4, bug = D_TIMER_RESTART)); }
  }
}

fun SetUpDriver(cfg: tDdConfig) {
  var driver: Driver;
  driver = new Driver((numTags = cfg.numTags, bug = cfg.bug));
  new OsClient((driver = driver, numData = cfg.numData, numCancels = cfg.numCancels));
}
