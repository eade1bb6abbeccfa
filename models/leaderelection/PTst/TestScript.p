module Ring = { Node, Timer };

test tcRing4 [main=Ring4]:
  assert OneLeader, LeaderKnown in (union Ring, { Ring4 });
test tcRing5AllInitiate [main=Ring5AllInitiate]:
  assert OneLeader, LeaderKnown in (union Ring, { Ring5AllInitiate });
test tcRing3Retransmit [main=Ring3Retransmit]:
  assert OneLeader, LeaderKnown in (union Ring, { Ring3Retransmit });

test tcBugStaleTimeout [main=BugStaleTimeout]:
  assert OneLeader, LeaderKnown in (union Ring, { BugStaleTimeout });
test tcBugWakeForward [main=BugWakeForward]:
  assert OneLeader, LeaderKnown in (union Ring, { BugWakeForward });
test tcBugRelayDrop [main=BugRelayDrop]:
  assert OneLeader, LeaderKnown in (union Ring, { BugRelayDrop });
test tcBugLeaderTwice [main=BugLeaderTwice]:
  assert OneLeader, LeaderKnown in (union Ring, { BugLeaderTwice });
