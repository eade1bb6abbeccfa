module Raft = { Server, Link, Driver };

/* Three servers talking directly: S1 is elected and commits 101; the
   administrator asks S1 to remove S3 while S2's election timer fires. The
   correct protocol, small enough for an exhaustive search. */
machine ThreeServers {
  start state Init {
    entry {
      var plan: seq[tAction];
      plan = Timeout(plan, 1, true);
      plan = Request(plan, 1, 101, true);
      plan = RemoveServer(plan, 1, 201, 3, false);
      plan = Timeout(plan, 2, true);
new Driver((numServers = 3, config = Servers(1, 3), bug = RAFT_NONE, viaLinks = false, plan = plan));
    }
  }
}

/* StaleAppend's plan: S1 is elected and gets request 101; S1 is cut off
   from the others, who elect S2; S2 commits 102; the network heals. */
fun StaleAppendPlan() : seq[tAction] {
  var plan: seq[tAction];
  plan = Timeout(plan, 1, true);
  plan = Request(plan, 1, 101, false);
  plan = Cut(plan, 1, Servers(2, 5));
  plan = Timeout(plan, 2, true);
  plan = Request(plan, 2, 102, true);
  plan = Heal(plan, 1, Servers(2, 5));
  return plan;
}

/* Ongaro's scenario (raft-dev, 10 July 2015, "one add, one remove"):
   C = {S1..S4}; S1, leader, commits 101; the administrator asks S1 to add
   S5; the client commits 102 through S1; S1 stops hearing S2 and S3; S2 is
   elected and asked to remove S4; the administrator, without an answer
   from S1, asks it again; then S1's election timer fires twice. */
fun MembershipPlan() : seq[tAction] {
  var plan: seq[tAction];
  plan = Timeout(plan, 1, true);
  plan = Request(plan, 1, 101, true);
  plan = AddServer(plan, 1, 201, 5, false);
  plan = Request(plan, 1, 102, true);
  plan = Request(plan, 1, 103, true);
  plan = Request(plan, 1, 104, true);
  plan = CutIn(plan, 1, Servers(2, 3));
  plan = Timeout(plan, 2, true);
  plan = RemoveServer(plan, 2, 202, 4, true);
  plan = AddServer(plan, 1, 201, 5, false);
  plan = Timeout(plan, 1, false);
  plan = Timeout(plan, 1, false);
  return plan;
}

machine StaleAppendCorrect {
  start state Init {
    entry {
      new Driver((numServers = 5, config = Servers(1, 5), bug = RAFT_NONE, viaLinks = true, plan = StaleAppendPlan()));
    }
  }
}

machine BugStaleAppend {
  start state Init {
    entry {
      new Driver((numServers = 5, config = Servers(1, 5), bug = RAFT_STALE_APPEND, viaLinks = true, plan = StaleAppendPlan()));
    }
  }
}

machine MembershipCorrect {
  start state Init {
    entry {
      new Driver((numServers = 5, config = Servers(1, 4), bug = RAFT_NONE, viaLinks = true, plan = MembershipPlan()));
    }
  }
}

machine BugConfigNoNoop {
  start state Init {
    entry {
      new Driver((numServers = 5, config = Servers(1, 4), bug = RAFT_CONFIG_NO_NOOP, viaLinks = true, plan = MembershipPlan()));
    }
  }
}

machine BugConfigNoWait {
  start state Init {
    entry {
      new Driver((numServers = 5, config = Servers(1, 4), bug = RAFT_CONFIG_NO_WAIT, viaLinks = true, plan = MembershipPlan()));
    }
  }
}

test tcThreeServers [main=ThreeServers]: assert RaftSafety in (union Raft, { ThreeServers });
test tcStaleAppendCorrect [main=StaleAppendCorrect]: assert RaftSafety in (union Raft, { StaleAppendCorrect });
test tcMembershipCorrect [main=MembershipCorrect]: assert RaftSafety in (union Raft, { MembershipCorrect });
test tcBugStaleAppend [main=BugStaleAppend]: assert RaftSafety in (union Raft, { BugStaleAppend });
test tcBugConfigNoNoop [main=BugConfigNoNoop]: assert RaftSafety in (union Raft, { BugConfigNoNoop });
test tcBugConfigNoWait [main=BugConfigNoWait]: assert RaftSafety in (union Raft, { BugConfigNoWait });
