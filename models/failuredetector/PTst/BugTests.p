/* Bug-variant tests: the bounded systems of BoundedTests.p with one seeded
   bug, selected by the configuration the detector (and its timer) receive
   at creation; everywhere else it is FD_NONE. */
machine BugLatePong {
  start state Init {
    entry { SetUpBounded((nNodes = 2, nAttempts = 2, maxRounds = 1, nCrashWithin = -1, maybeNoFault = false, bug = FD_LATE_PONG)); }
  }
}
machine BugCancelRace {
  start state Init {
    entry { SetUpBounded((nNodes = 2, nAttempts = 1, maxRounds = 2, nCrashWithin = 1, maybeNoFault = false, bug = FD_CANCEL_RACE)); }
  }
}
machine BugCountPongs {
  start state Init {
    entry { SetUpBounded((nNodes = 2, nAttempts = 2, maxRounds = 1, nCrashWithin = 0, maybeNoFault = false, bug = FD_COUNT_PONGS)); }
  }
}
machine BugEarlyStop {
  start state Init {
    entry { SetUpBounded((nNodes = 2, nAttempts = 2, maxRounds = 1, nCrashWithin = 0, maybeNoFault = false, bug = FD_EARLY_STOP)); }
  }
}
