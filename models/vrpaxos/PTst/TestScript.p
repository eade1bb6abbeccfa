module VR = { Replica, Link, Driver };

/* Three replicas talking directly: op 101 committed in view 0; replica 1
   suspects the primary and the group changes to view 1 (primary 1); then
   op 103 through replica 1. The correct protocol, small enough for an
   exhaustive search. */
machine ThreeReplicas {
  start state Init {
    entry {
      var plan: seq[tAction];
      plan = Request(plan, 1, 0, 101, true);
      plan = Timeout(plan, 1, 0);
      plan = WaitView(plan, 1);
      plan = Request(plan, 2, 1, 103, true);
      new Driver((n = 3, bug = VR_NONE, viaLinks = false, plan = plan));
    }
  }
}

test tcThreeReplicas [main=ThreeReplicas]: assert VRSafety in (union VR, { ThreeReplicas });

/* StalePrepare's plan. Five replicas, view 0 (primary 0). Session 1 sends
   op 101 to replica 0 and does not wait; session 2 commits 102 and 103
   through replica 0. Replica 0 is cut off; the others suspect it and
   change to view 1 (primary 1). Replica 0's outgoing links come back (it
   can send, not hear: a half-open connection), session 1 pings it, and it
   crashes; session 2 commits 105 through replica 1. */
fun StalePreparePlan() : seq[tAction] {
  var plan: seq[tAction];
  plan = Request(plan, 1, 0, 101, false);
  plan = Request(plan, 2, 0, 102, true);
  plan = Request(plan, 2, 0, 103, true);
  plan = Cut(plan, 0, Replicas(1, 4));
  plan = Timeout(plan, 1, 0);
  plan = Timeout(plan, 2, 0);
  plan = Timeout(plan, 3, 0);
  plan = Timeout(plan, 4, 0);
  plan = WaitView(plan, 1);
  plan = HealOut(plan, 0, Replicas(1, 4));
  plan = Ping(plan, 1, 0);
  plan = Crash(plan, 0);
  plan = Request(plan, 2, 1, 105, true);
  return plan;
}

machine StalePrepareCorrect {
  start state Init {
    entry {
      new Driver((n = 5, bug = VR_NONE, viaLinks = true, plan = StalePreparePlan()));
    }
  }
}

machine BugStalePrepare {
  start state Init {
    entry {
      new Driver((n = 5, bug = VR_STALE_PREPARE, viaLinks = true, plan = StalePreparePlan()));
    }
  }
}

test tcStalePrepareCorrect [main=StalePrepareCorrect]: assert VRSafety in (union VR, { StalePrepareCorrect });
test tcBugStalePrepare [main=BugStalePrepare]: assert VRSafety in (union VR, { BugStalePrepare });

/* LongestLog's plan. Five replicas, view 0 (primary 0). Session 1 sends
   op 101 to replica 0 and does not wait; session 2 commits 102 and 103.
   The network splits into {0, 4} and {1, 2, 3}; session 1 sends op 104 to
   replica 0 (its primary, for all it knows), and replica 0 crashes.
   Replicas 1, 2, 3 suspect it and change to view 1 (primary 1); session 2
   commits 105 through replica 1. Replica 1 crashes, the
   network heals, the others suspect it and change to view 2 (primary 2);
   session 2 commits 108. */
fun LongestLogPlan() : seq[tAction] {
  var plan: seq[tAction];
  plan = Request(plan, 1, 0, 101, false);
  plan = Request(plan, 2, 0, 102, true);
  plan = Request(plan, 2, 0, 103, true);
  plan = Cut(plan, 4, Replicas(1, 3));
  plan = Cut(plan, 0, Replicas(1, 3));
  plan = Request(plan, 1, 0, 104, false);
  plan = Crash(plan, 0);
  plan = Timeout(plan, 1, 0);
  plan = Timeout(plan, 2, 0);
  plan = Timeout(plan, 3, 0);
  plan = WaitView(plan, 1);
  plan = Request(plan, 2, 1, 105, true);
  plan = Crash(plan, 1);
  plan = Heal(plan, 4, Replicas(1, 3));
  plan = Timeout(plan, 2, 1);
  plan = Timeout(plan, 3, 1);
  plan = Timeout(plan, 4, 1);
  plan = WaitView(plan, 2);
  plan = Request(plan, 2, 2, 108, true);
  return plan;
}

machine LongestLogCorrect {
  start state Init {
    entry {
      new Driver((n = 5, bug = VR_NONE, viaLinks = true, plan = LongestLogPlan()));
    }
  }
}

machine BugLongestLog {
  start state Init {
    entry {
      new Driver((n = 5, bug = VR_LONGEST_LOG, viaLinks = true, plan = LongestLogPlan()));
    }
  }
}

test tcLongestLogCorrect [main=LongestLogCorrect]: assert VRSafety in (union VR, { LongestLogCorrect });
test tcBugLongestLog [main=BugLongestLog]: assert VRSafety in (union VR, { BugLongestLog });
