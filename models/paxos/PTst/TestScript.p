module Paxos = { Proposer, Acceptor, Learner };
test tcTwoProposers [main=TwoProposers]: assert OneValueChosen in (union Paxos, { TwoProposers });
