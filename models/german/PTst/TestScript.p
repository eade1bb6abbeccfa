module German = { Home, Cache };

test tcTwoCaches [main=TwoCaches]:
  assert CacheCoherence, RequestsGranted in (union German, { TwoCaches });
test tcThreeCaches [main=ThreeCaches]:
  assert CacheCoherence, RequestsGranted in (union German, { ThreeCaches });

test tcBugEarlyGrant [main=BugEarlyGrant]:
  assert CacheCoherence, RequestsGranted in (union German, { BugEarlyGrant });
test tcBugAckDataLost [main=BugAckDataLost]:
  assert CacheCoherence, RequestsGranted in (union German, { BugAckDataLost });
test tcBugStaleUpgrade [main=BugStaleUpgrade]:
  assert CacheCoherence, RequestsGranted in (union German, { BugStaleUpgrade });
test tcBugInvUnhandled [main=BugInvUnhandled]:
  assert CacheCoherence, RequestsGranted in (union German, { BugInvUnhandled });
test tcBugSelfInv [main=BugSelfInv]:
  assert CacheCoherence, RequestsGranted in (union German, { BugSelfInv });
