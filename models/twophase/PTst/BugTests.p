/* Bug-variant tests: small two-phase-commit systems without failures or
   read-backs, each client writing one transaction, with the correct
   coordinator (tcOneClientTwoParticipants) or one seeded bug in it,
   selected by the eTwoPCBugConfig the coordinator receives before any
   client request. Only the safety spec is asserted: under exhaustive
   search the Progress spec reports the timer's self-loop (eDelayedTimeOut)
   as a hot cycle, which would hide the seeded bug. A stale vote needs two
   transactions, hence two clients (a client's second transaction has a
   smaller id and is refused); one participant keeps that system small
   enough for a quick exhaustive search (with the correct coordinator it
   has 7.4 million states, too many for a routine test). */
machine OneClientTwoParticipants {
  start state Init {
    entry {
      SetUpTwoPhaseCommitWithBug((numClients = 1, numParticipants = 2, numTransPerClient = 0, failParticipants = 0),
                                 TPC_NONE);
    }
  }
}

machine BugStaleVote {
  start state Init {
    entry {
      SetUpTwoPhaseCommitWithBug((numClients = 2, numParticipants = 1, numTransPerClient = 0, failParticipants = 0),
                                 TPC_STALE_VOTE);
    }
  }
}

machine BugTimeoutCommit {
  start state Init {
    entry {
      SetUpTwoPhaseCommitWithBug((numClients = 1, numParticipants = 2, numTransPerClient = 0, failParticipants = 0),
                                 TPC_TIMEOUT_COMMIT);
    }
  }
}

fun SetUpTwoPhaseCommitWithBug(config: t2PCConfig, bug: tTwoPCBug) {
  var coordinator: Coordinator;
  var participants: seq[Participant];
  var i: int;

  while (i < config.numParticipants) {
    participants += (i, new Participant());
    i = i + 1;
  }
  InitializeTwoPhaseCommitSpecs(config.numParticipants);
  coordinator = new Coordinator(participants);
  send coordinator, eTwoPCBugConfig, bug;

  i = 0;
  while (i < config.numClients) {
    new Client((coordinator = coordinator, n = config.numTransPerClient, id = i + 1,
                readBack = false));
    i = i + 1;
  }
}

test tcOneClientTwoParticipants [main=OneClientTwoParticipants]:
  assert AtomicityInvariant in (union TwoPhaseCommit, TwoPCClient, { OneClientTwoParticipants });

test tcBugStaleVote [main=BugStaleVote]:
  assert AtomicityInvariant in (union TwoPhaseCommit, TwoPCClient, { BugStaleVote });

test tcBugTimeoutCommit [main=BugTimeoutCommit]:
  assert AtomicityInvariant in (union TwoPhaseCommit, TwoPCClient, { BugTimeoutCommit });
