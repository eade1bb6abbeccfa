module MultiPaxos = { Leader, Acceptor, Replica };

test tcNoFailover [main=NoFailover]: assert Consensus, LogsComplete in (union MultiPaxos, { NoFailover });
test tcOneFailover [main=OneFailover]: assert Consensus, LogsComplete in (union MultiPaxos, { OneFailover });
test tcOneFailoverCrash [main=OneFailoverCrash]: assert Consensus, LogsComplete in (union MultiPaxos, { OneFailoverCrash });
test tcTwoFailovers [main=TwoFailovers]: assert Consensus, LogsComplete in (union MultiPaxos, { TwoFailovers });
test tcOneFailoverTwoSlots [main=OneFailoverTwoSlots]: assert Consensus in (union MultiPaxos, { OneFailoverTwoSlots });
test tcBugLateP1b [main=BugLateP1b]: assert Consensus in (union MultiPaxos, { BugLateP1b });
test tcBugFirstValue [main=BugFirstValue]: assert Consensus in (union MultiPaxos, { BugFirstValue });
test tcBugStaleP2a [main=BugStaleP2a]: assert Consensus in (union MultiPaxos, { BugStaleP2a });
test tcBugEarlyReply [main=BugEarlyReply]: assert Consensus in (union MultiPaxos, { BugEarlyReply });
test tcBugStaleNack [main=BugStaleNack]: assert Consensus, LogsComplete in (union MultiPaxos, { BugStaleNack });
