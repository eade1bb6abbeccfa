module Paxos = { Proposer, Acceptor, Learner };

test tcTwoProposers [main=TwoProposers]: assert OneValueChosen in (union Paxos, { TwoProposers });

test tcOneProposer [main=OneProposer]:
  assert OneValueChosen, ChosenByMajority, PrepareAnswered in (union Paxos, { OneProposer });
test tcThriftyOneRound [main=ThriftyOneRound]:
  assert OneValueChosen, ChosenByMajority, PrepareAnswered in (union Paxos, { ThriftyOneRound });
test tcThriftyRetry [main=ThriftyRetry]:
  assert OneValueChosen, ChosenByMajority, PrepareAnswered in (union Paxos, { ThriftyRetry });

/* The seeded bugs (PTst/BugTests.p). The safety variants assert the
   safety specs only: with PrepareAnswered, hot whenever a proposer is in
   phase 1, --search dfs also runs its liveness cycle search and reports
   the safety bug later (tcBugStalePromise: 16.5 s instead of 4.5 s). */
test tcBugStaleAccept [main=BugStaleAccept]:
  assert OneValueChosen, ChosenByMajority in (union Paxos, { BugStaleAccept });
test tcBugRoundOnly [main=BugRoundOnly]:
  assert OneValueChosen, ChosenByMajority in (union Paxos, { BugRoundOnly });
test tcBugStalePromise [main=BugStalePromise]:
  assert OneValueChosen, ChosenByMajority in (union Paxos, { BugStalePromise });
test tcBugNackAfterGiveUp [main=BugNackAfterGiveUp]:
  assert OneValueChosen, ChosenByMajority in (union Paxos, { BugNackAfterGiveUp });
test tcBugSilentNack [main=BugSilentNack]:
  assert OneValueChosen, ChosenByMajority, PrepareAnswered in (union Paxos, { BugSilentNack });
