module ChainReplication = { Server, Master, Client, FaultInjector };

test tcNoFailure [main=NoFailure]:
  assert UpdateOrder, FreshQueries, Progress in (union ChainReplication, { NoFailure });
test tcTwoClients [main=TwoClients]:
  assert UpdateOrder, FreshQueries, Progress in (union ChainReplication, { TwoClients });
test tcOneFailure [main=OneFailure]:
  assert UpdateOrder, FreshQueries, Progress in (union ChainReplication, { OneFailure });
test tcTwoFailuresTail [main=TwoFailuresTail]:
  assert UpdateOrder, FreshQueries, Progress in (union ChainReplication, { TwoFailuresTail });
test tcTwoFailuresHead [main=TwoFailuresHead]:
  assert UpdateOrder, FreshQueries, Progress in (union ChainReplication, { TwoFailuresHead });
test tcBugBootCrash [main=BugBootCrash]:
  assert UpdateOrder, FreshQueries, Progress in (union ChainReplication, { BugBootCrash });
test tcBugNeighbours [main=BugNeighbours]:
  assert UpdateOrder, FreshQueries, Progress in (union ChainReplication, { BugNeighbours });
test tcBugStaleAck [main=BugStaleAck]:
  assert UpdateOrder, FreshQueries, Progress in (union ChainReplication, { BugStaleAck });
test tcBugNoFence [main=BugNoFence]:
  assert UpdateOrder, FreshQueries, Progress in (union ChainReplication, { BugNoFence });
test tcBugTailNoAck [main=BugTailNoAck]:
  assert UpdateOrder, FreshQueries, Progress in (union ChainReplication, { BugTailNoAck });
