module FailureDetectorSystem = { FailureDetector, Node, Timer, Client };

test tcTest_FailureDetector [main=TestMultipleClients]:
  assert ReliableFailureDetector in
  { TestMultipleClients, Client, FailureInjector, FailureDetector, Node, Timer };

test tcTwoNodesOneRound [main=TwoNodesOneRound]:
  assert ReliableFailureDetector in (union FailureDetectorSystem, { TwoNodesOneRound });
test tcTwoNodesTwoRounds [main=TwoNodesTwoRounds]:
  assert ReliableFailureDetector in (union FailureDetectorSystem, { TwoNodesTwoRounds });

test tcBugLatePong [main=BugLatePong]:
  assert ReliableFailureDetector in (union FailureDetectorSystem, { BugLatePong });
test tcBugCancelRace [main=BugCancelRace]:
  assert ReliableFailureDetector in (union FailureDetectorSystem, { BugCancelRace });
test tcBugCountPongs [main=BugCountPongs]:
  assert ReliableFailureDetector in (union FailureDetectorSystem, { BugCountPongs });
test tcBugEarlyStop [main=BugEarlyStop]:
  assert ReliableFailureDetector in (union FailureDetectorSystem, { BugEarlyStop });
