/* Bug-variant tests: two proposers, three acceptors, one learner, each
   test with one seeded bug, selected by the bug field of the configuration
   that acceptors and proposers receive through new (tPaxosBug). The
   quorums differ from test to test: each system is one in which the bug
   can show up (a stale promise, for one, needs a proposer that talks to
   every acceptor; a proposer refused twice in a round, too) and, among
   those tried, one where the bug needs the most scheduling deviations
   while --search dfs still finds it within seconds. Proposer 1 (value 10)
   has the lower ballot of each round. */
machine BugStaleAccept {
  start state Init {
    entry {
      SetUpPaxos((numAcceptors = 3, numLearners = 1, proposers = Two(1, All(), 1, Pair(2, 1)), bug = PX_STALE_ACCEPT));
    }
  }
}

machine BugRoundOnly {
  start state Init {
    entry {
      SetUpPaxos((numAcceptors = 3, numLearners = 1, proposers = Two(2, All(), 1, Pair(2, 0)), bug = PX_ROUND_ONLY));
    }
  }
}

machine BugStalePromise {
  start state Init {
    entry {
      SetUpPaxos((numAcceptors = 3, numLearners = 1, proposers = Two(2, All(), 1, Pair(2, 1)), bug = PX_STALE_PROMISE));
    }
  }
}

machine BugNackAfterGiveUp {
  start state Init {
    entry {
      SetUpPaxos((numAcceptors = 3, numLearners = 1, proposers = Two(2, All(), 1, Pair(2, 1)), bug = PX_NACK_AFTER_GIVE_UP));
    }
  }
}

machine BugSilentNack {
  start state Init {
    entry {
      SetUpPaxos((numAcceptors = 3, numLearners = 1, proposers = Two(1, Pair(0, 1), 1, Pair(1, 2)), bug = PX_SILENT_NACK));
    }
  }
}
