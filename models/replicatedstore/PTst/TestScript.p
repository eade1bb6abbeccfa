/* The replicated store (module ReplicatedStore). */
test tcOneClient [main=TestOneClient]:
  assert ReadsSeeAckedWrites, EveryRequestAnswered in
  (union Clients, ReplicatedStore, { TestOneClient });

test tcWriterAndReader [main=TestWriterAndReader]:
  assert ReadsSeeAckedWrites, EveryRequestAnswered in
  (union Clients, ReplicatedStore, { TestWriterAndReader });

test tcThreeReplicas [main=TestThreeReplicas]:
  assert ReadsSeeAckedWrites, EveryRequestAnswered in
  (union Clients, ReplicatedStore, { TestThreeReplicas });

/* The abstract store bound to the interface Primary (module
   SingleNodeStore): the same driver as tcOneClient, and two clients that
   write twice each. */
test tcOneClientAbstract [main=TestOneClient]:
  assert ReadsSeeAckedWrites, EveryRequestAnswered in
  (union Clients, SingleNodeStore, { TestOneClient });

test tcTwoClientsAbstract [main=TestTwoClients]:
  assert ReadsSeeAckedWrites, EveryRequestAnswered in
  (union Clients, SingleNodeStore, { TestTwoClients });

/* Seeded bugs: the configuration of tcOneClient with one deviation
   (`// BUG <Name>:` in PSrc/). */
test tcBugSkipReplica [main=BugSkipReplica]:
  assert ReadsSeeAckedWrites, EveryRequestAnswered in
  (union Clients, ReplicatedStore, { BugSkipReplica });

test tcBugIdleStop [main=BugIdleStop]:
  assert ReadsSeeAckedWrites, EveryRequestAnswered in
  (union Clients, ReplicatedStore, { BugIdleStop });

test tcBugAckOnData [main=BugAckOnData]:
  assert ReadsSeeAckedWrites, EveryRequestAnswered in
  (union Clients, ReplicatedStore, { BugAckOnData });
