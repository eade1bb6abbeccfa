/* Over the lossy network (module LossyNet). */
test tcThreeMessages [main=TestThreeMessages]:
  assert InOrderExactlyOnce, AllDelivered in
  (union Applications, Endpoints, LossyNet, { TestThreeMessages });

test tcFiveMessages [main=TestFiveMessages]:
  assert InOrderExactlyOnce, AllDelivered in
  (union Applications, Endpoints, LossyNet, { TestFiveMessages });

test tcAlternatingBit [main=TestAlternatingBit]:
  assert InOrderExactlyOnce, AllDelivered in
  (union Applications, Endpoints, LossyNet, { TestAlternatingBit });

/* Over the perfect network bound to the interface Network (module
   PerfectNet): the same drivers as tcThreeMessages and tcFiveMessages. */
test tcThreeMessagesPerfect [main=TestThreeMessages]:
  assert InOrderExactlyOnce, AllDelivered in
  (union Applications, Endpoints, PerfectNet, { TestThreeMessages });

test tcFiveMessagesPerfect [main=TestFiveMessages]:
  assert InOrderExactlyOnce, AllDelivered in
  (union Applications, Endpoints, PerfectNet, { TestFiveMessages });

/* Seeded bugs, over the lossy network (`// BUG <Name>:` in PSrc/, or a
   configuration). */
test tcBugSmallSeqSpace [main=BugSmallSeqSpace]:
  assert InOrderExactlyOnce, AllDelivered in
  (union Applications, Endpoints, LossyNet, { BugSmallSeqSpace });

test tcBugNoReorder [main=BugNoReorder]:
  assert InOrderExactlyOnce, AllDelivered in
  (union Applications, Endpoints, LossyNet, { BugNoReorder });

test tcBugNoReack [main=BugNoReack]:
  assert InOrderExactlyOnce, AllDelivered in
  (union Applications, Endpoints, LossyNet, { BugNoReack });
