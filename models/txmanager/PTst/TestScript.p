module TxManager = { Coordinator, Participant, StorageServer, Client, FaultInjector };

test tcOneTx [main=OneTx]: assert Atomicity, Progress in (union TxManager, { OneTx });
test tcTwoTx [main=TwoTx]: assert Atomicity, Progress in (union TxManager, { TwoTx });
test tcOneTxHeadFailure [main=OneTxHeadFailure]: assert Atomicity, Progress in (union TxManager, { OneTxHeadFailure });
test tcOneTxTailFailure [main=OneTxTailFailure]: assert Atomicity, Progress in (union TxManager, { OneTxTailFailure });
test tcTwoTxHeadCrash [main=TwoTxHeadCrash]: assert Atomicity, Progress in (union TxManager, { TwoTxHeadCrash });
test tcBugEarlyAbort [main=BugEarlyAbort]: assert Atomicity, Progress in (union TxManager, { BugEarlyAbort });
test tcBugHeadAck [main=BugHeadAck]: assert Atomicity, Progress in (union TxManager, { BugHeadAck });
test tcBugTailCrash [main=BugTailCrash]: assert Atomicity, Progress in (union TxManager, { BugTailCrash });
test tcBugNoDedup [main=BugNoDedup]: assert Atomicity, Progress in (union TxManager, { BugNoDedup });
test tcBugAnyAck [main=BugAnyAck]: assert Atomicity, Progress in (union TxManager, { BugAnyAck });
