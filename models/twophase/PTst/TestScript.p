module TwoPhaseCommit = { Coordinator, Participant, Timer };
module TwoPCClient = { Client };
module FailureInjector = { FailureInjector };

test tcSingleClientNoFailure [main=SingleClientNoFailure]:
  assert AtomicityInvariant in (union TwoPhaseCommit, TwoPCClient, FailureInjector, { SingleClientNoFailure });

test tcMultipleClientsNoFailure [main=MultipleClientsNoFailure]:
  assert AtomicityInvariant, Progress in (union TwoPhaseCommit, TwoPCClient, FailureInjector, { MultipleClientsNoFailure });

test tcMultipleClientsWithFailure [main=MultipleClientsWithFailure]:
  assert Progress in (union TwoPhaseCommit, TwoPCClient, FailureInjector, { MultipleClientsWithFailure });
