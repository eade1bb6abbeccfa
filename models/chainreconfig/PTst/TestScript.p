module Chain = { Server, Master, Link, Driver };

/* The plan of the bug tests: update 1 is acknowledged; update 2 is sent
   without waiting; the client makes `queries` queries, each answered before
   the next; then server 3 fails (crash: it halts; or it is only suspected
   and keeps running) and the master relinks 2 -> 4; then update 3 is
   acknowledged. */
fun FailurePlan(queries: int, crash: bool) : seq[tAction] {
  var plan: seq[tAction];
  var q: int;
  plan = Update(plan, 1, true);
  plan = Update(plan, 2, false);
  while (q < queries) {
    q = q + 1;
    plan = Query(plan, q);
  }
  if (crash) {
    plan = Crash(plan, 3);
  } else {
    plan = Suspect(plan, 3);
  }
  plan = Update(plan, 3, true);
  return plan;
}

machine BugNoResend {
  start state Init {
    entry {
      new Driver((numServers = 5, bug = CR_NO_RESEND, viaLinks = true, plan = FailurePlan(10, true)));
    }
  }
}

machine BugNoFence {
  start state Init {
    entry {
      new Driver((numServers = 5, bug = CR_NO_FENCE, viaLinks = true, plan = FailurePlan(10, false)));
    }
  }
}

machine CrashCorrect {
  start state Init {
    entry {
      new Driver((numServers = 5, bug = CR_NONE, viaLinks = true, plan = FailurePlan(10, true)));
    }
  }
}

machine SuspectCorrect {
  start state Init {
    entry {
      new Driver((numServers = 5, bug = CR_NONE, viaLinks = true, plan = FailurePlan(10, false)));
    }
  }
}

test tcCrashCorrect [main=CrashCorrect]: assert UpdatePropagation, AckedUpdatesVisible in (union Chain, { CrashCorrect });
test tcSuspectCorrect [main=SuspectCorrect]: assert UpdatePropagation, AckedUpdatesVisible in (union Chain, { SuspectCorrect });
test tcBugNoResend [main=BugNoResend]: assert UpdatePropagation, AckedUpdatesVisible in (union Chain, { BugNoResend });
test tcBugNoFence [main=BugNoFence]: assert UpdatePropagation, AckedUpdatesVisible in (union Chain, { BugNoFence });

/* Three servers talking directly, the correct protocol: update 1
   acknowledged, update 2 in flight when the middle server crashes, update 3
   after the relinking. */
machine ThreeServers {
  start state Init {
    entry {
      var plan: seq[tAction];
      plan = Update(plan, 1, true);
      plan = Update(plan, 2, false);
      plan = Crash(plan, 2);
      plan = Update(plan, 3, true);
      new Driver((numServers = 3, bug = CR_NONE, viaLinks = false, plan = plan));
    }
  }
}

test tcThreeServers [main=ThreeServers]: assert UpdatePropagation, AckedUpdatesVisible in (union Chain, { ThreeServers });
