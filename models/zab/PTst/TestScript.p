module Zab = { Server, SyncThread, Link, Driver };

/* Three servers talking directly. Servers 3 and 2 start and elect server
   3 (the highest id; all logs are empty), which commits 101; server 1
   starts and joins; server 3 crashes, servers 2 and 1 elect server 2,
   which commits 102. The correct protocol, small enough for an exhaustive
   search. */
machine LeaderChange {
  start state Init {
    entry {
      var plan: seq[tAction];
      plan = Timeout(plan, 3);
      plan = Timeout(plan, 2);
      plan = WaitLeader(plan, 3);
      plan = Request(plan, 1, 3, 101, true);
      plan = Timeout(plan, 1);
      plan = WaitSynced(plan, 1);
      plan = Crash(plan, 3);
      plan = Timeout(plan, 2);
      plan = Timeout(plan, 1);
      plan = WaitLeader(plan, 2);
      plan = Request(plan, 2, 2, 102, true);
      new Driver((n = 3, bug = ZAB_NONE, viaLinks = false, plan = plan));
    }
  }
}

/* Three servers talking directly. Servers 3 and 2 start and elect server
   3, which commits 101; server 1 starts and joins (a DIFF, with 102 among
   the outstanding proposals or not) while 102 is being committed. */
machine LateJoin {
  start state Init {
    entry {
      var plan: seq[tAction];
      plan = Timeout(plan, 3);
      plan = Timeout(plan, 2);
      plan = WaitLeader(plan, 3);
      plan = Request(plan, 1, 3, 101, true);
      plan = Timeout(plan, 1);
      plan = Request(plan, 1, 3, 102, false);
      plan = WaitSynced(plan, 1);
      plan = WaitCommit(plan, 102);
      new Driver((n = 3, bug = ZAB_NONE, viaLinks = false, plan = plan));
    }
  }
}

/* DiffWithoutTrunc's plan (ZOOKEEPER-1154). Five servers. Servers 5, 4, 3
   start and elect server 5 (the best vote among them: the logs are empty,
   the highest id wins), then servers 2 and 1 start and join it. Session 1
   sends 101 to server 5 and does not wait; session 2 commits 102 and 103.
   Server 5 is cut off from the others; session 1 pings it, and its
   failure detector fires (it has lost its quorum). Servers 4, 3, 2 elect
   server 4, server 1 joins it, and server 4 commits 104. The network heals
   and server 5, looking for a leader again, joins server 4. Each election
   has exactly a quorum of candidates, so its winner is known in advance. */
fun DiffWithoutTruncPlan() : seq[tAction] {
  var plan: seq[tAction];
  plan = Timeout(plan, 5);
  plan = Timeout(plan, 4);
  plan = Timeout(plan, 3);
  plan = WaitLeader(plan, 5);
  plan = Timeout(plan, 2);
  plan = Timeout(plan, 1);
  plan = Request(plan, 1, 5, 101, false);
  plan = Request(plan, 2, 5, 102, true);
  plan = Request(plan, 2, 5, 103, true);
  plan = Cut(plan, 5, Servers(1, 4));
  plan = Ping(plan, 1, 5);
  plan = Timeout(plan, 5);
  plan = Timeout(plan, 4);
  plan = Timeout(plan, 3);
  plan = Timeout(plan, 2);
  plan = WaitLeader(plan, 4);
  plan = Timeout(plan, 1);
  plan = Request(plan, 2, 4, 104, true);
  plan = Heal(plan, 5, Servers(1, 4));
  plan = Timeout(plan, 5);
  plan = WaitSynced(plan, 5);
  return plan;
}

machine DiffWithoutTruncCorrect {
  start state Init {
    entry {
      new Driver((n = 5, bug = ZAB_NONE, viaLinks = true, plan = DiffWithoutTruncPlan()));
    }
  }
}

machine BugDiffWithoutTrunc {
  start state Init {
    entry {
      new Driver((n = 5, bug = ZAB_DIFF_WITHOUT_TRUNC, viaLinks = true, plan = DiffWithoutTruncPlan()));
    }
  }
}

/* CommitBeforeUptodate's plan (ZOOKEEPER-4394). Five servers. Servers 5,
   4, 3 start and elect server 5, server 2 joins, and 101 is committed;
   server 4 crashes (a quorum is now server 5 and two of servers 1, 2, 3).
   Session 1 sends 102 to server 5 and does not wait. Server 1 starts cut
   off from the others, looks for a leader for two rounds, and joins
   server 5 once the network heals. */
fun CommitBeforeUptodatePlan() : seq[tAction] {
  var plan: seq[tAction];
  plan = Timeout(plan, 5);
  plan = Timeout(plan, 4);
  plan = Timeout(plan, 3);
  plan = WaitLeader(plan, 5);
  plan = Timeout(plan, 2);
  plan = WaitSynced(plan, 2);
  plan = Request(plan, 2, 5, 101, true);
  plan = Crash(plan, 4);
  plan = Request(plan, 1, 5, 102, false);
  plan = Cut(plan, 1, Servers(2, 5));
  plan = Timeout(plan, 1);
  plan = Timeout(plan, 1);
  plan = Heal(plan, 1, Servers(2, 5));
  plan = Timeout(plan, 1);
  plan = WaitSynced(plan, 1);
  plan = WaitCommit(plan, 102);
  return plan;
}

machine CommitBeforeUptodateCorrect {
  start state Init {
    entry {
      new Driver((n = 5, bug = ZAB_NONE, viaLinks = true, plan = CommitBeforeUptodatePlan()));
    }
  }
}

machine BugCommitBeforeUptodate {
  start state Init {
    entry {
      new Driver((n = 5, bug = ZAB_COMMIT_BEFORE_UPTODATE, viaLinks = true, plan = CommitBeforeUptodatePlan()));
    }
  }
}

test tcLeaderChange [main=LeaderChange]: assert ZabSafety in (union Zab, { LeaderChange });
test tcLateJoin [main=LateJoin]: assert ZabSafety in (union Zab, { LateJoin });
test tcDiffWithoutTruncCorrect [main=DiffWithoutTruncCorrect]: assert ZabSafety in (union Zab, { DiffWithoutTruncCorrect });
test tcBugDiffWithoutTrunc [main=BugDiffWithoutTrunc]: assert ZabSafety in (union Zab, { BugDiffWithoutTrunc });
test tcCommitBeforeUptodateCorrect [main=CommitBeforeUptodateCorrect]: assert ZabSafety in (union Zab, { CommitBeforeUptodateCorrect });
test tcBugCommitBeforeUptodate [main=BugCommitBeforeUptodate]: assert ZabSafety in (union Zab, { BugCommitBeforeUptodate });
