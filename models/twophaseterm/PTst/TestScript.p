module TwoPhase = { Coordinator, Participant, Recovery, Link, Driver };

/* The plan of the bug tests, with two coordinators: coordinator 1 runs
   transaction 1 to its decision, then begins transaction 2 and the client
   does not wait; coordinator 2 runs transactions 3 and 4 to their decision;
   then the termination protocol runs for transaction 2 (a participant
   waited too long for its decision), and participant 5's timer for it
   fires. */
fun TermPlan() : seq[tAction] {
  var plan: seq[tAction];
  plan = Begin(plan, 1, 1, true);
  plan = Begin(plan, 1, 2, false);
  plan = Begin(plan, 2, 3, true);
  plan = Begin(plan, 2, 4, true);
  plan = Terminate(plan, 2);
  plan = TimerFires(plan, 2, 5);
  return plan;
}

machine TermCorrect {
  start state Init {
    entry {
      new Driver((numCoordinators = 2, numParticipants = 5, bug = TPC_NONE, viaLinks = true, plan = TermPlan()));
    }
  }
}

machine BugTermAbortUncertain {
  start state Init {
    entry {
      new Driver((numCoordinators = 2, numParticipants = 5, bug = TPC_TERM_ABORT_UNCERTAIN, viaLinks = true, plan = TermPlan()));
    }
  }
}

machine BugPreparedTimeout {
  start state Init {
    entry {
      new Driver((numCoordinators = 2, numParticipants = 5, bug = TPC_PREPARED_TIMEOUT, viaLinks = true, plan = TermPlan()));
    }
  }
}

machine BugForgetAbort {
  start state Init {
    entry {
      new Driver((numCoordinators = 2, numParticipants = 5, bug = TPC_FORGET_ABORT, viaLinks = true, plan = TermPlan()));
    }
  }
}

test tcTermCorrect [main=TermCorrect]: assert Atomicity in (union TwoPhase, { TermCorrect });
test tcBugTermAbortUncertain [main=BugTermAbortUncertain]: assert Atomicity in (union TwoPhase, { BugTermAbortUncertain });
test tcBugPreparedTimeout [main=BugPreparedTimeout]: assert Atomicity in (union TwoPhase, { BugPreparedTimeout });
test tcBugForgetAbort [main=BugForgetAbort]: assert Atomicity in (union TwoPhase, { BugForgetAbort });

/* One coordinator and two participants talking directly, the correct
   protocol: a transaction begins and, concurrently, the termination
   protocol runs for it and participant 2's timer fires. Small enough for an
   exhaustive search. */
machine TwoParticipants {
  start state Init {
    entry {
      var plan: seq[tAction];
      plan = Begin(plan, 1, 1, false);
      plan = Terminate(plan, 1);
      plan = TimerFires(plan, 1, 2);
      new Driver((numCoordinators = 1, numParticipants = 2, bug = TPC_NONE, viaLinks = false, plan = plan));
    }
  }
}

test tcTwoParticipants [main=TwoParticipants]: assert Atomicity in (union TwoPhase, { TwoParticipants });
