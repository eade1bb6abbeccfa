/* Bounded tests: the detector monitors for maxRounds successful rounds and
   then stops. The fault is bounded too, so that every crash falls within
   the monitoring period: before the detector exists, the injector (the
   test driver) picks a node and tells it that it is faulty; that node
   crashes at a moment of its choosing, at the latest at its
   (nCrashWithin + 1)-th ping, so it answers at most nCrashWithin pings.
   A successful round needs an answer of every node still monitored (one
   answer counts for one round only), so with maxRounds > nCrashWithin the
   detector cannot complete its rounds while the faulty node is monitored:
   some round fails, and its report names the crashed node. With
   maybeNoFault the injector may also inject no fault at all (then the
   detector completes its rounds and stops); with nCrashWithin < 0 it never
   does. */
type tBoundedConfig = (nNodes: int, nAttempts: int, maxRounds: int, nCrashWithin: int, maybeNoFault: bool,
                       bug: tFDBug);

fun SetUpBounded(config: tBoundedConfig) {
  var nodes: set[Node];
  var i: int;
  var fd: FailureDetector;
  while (i < config.nNodes) {
    nodes += (new Node());
    i = i + 1;
  }
  // the fault: sent before the detector exists, so the node has it before any ping
  if (config.nCrashWithin >= 0 && !(config.maybeNoFault && $)) {
    send choose(nodes), eCrashWithin, config.nCrashWithin;
  }
  fd = new FailureDetector((nodes = nodes, nAttempts = config.nAttempts, maxRounds = config.maxRounds,
                            bug = config.bug));
  new Client(fd);
}

machine TwoNodesOneRound {
  start state Init {
    entry {
      SetUpBounded((nNodes = 2, nAttempts = 1, maxRounds = 1, nCrashWithin = 0, maybeNoFault = true, bug = FD_NONE));
    }
  }
}

machine TwoNodesTwoRounds {
  start state Init {
    entry {
      SetUpBounded((nNodes = 2, nAttempts = 1, maxRounds = 2, nCrashWithin = 1, maybeNoFault = false, bug = FD_NONE));
    }
  }
}
