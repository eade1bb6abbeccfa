/* Two-phase commit: types and events shared by every machine. */
type tTrans = (key: string, val: int, transId: int);
type tWriteTransReq = (client: Client, trans: tTrans);
type tWriteTransResp = (transId: int, status: tTransStatus);
type tReadTransReq = (client: Client, key: string);
type tReadTransResp = (key: string, val: int, status: tTransStatus);
type tPrepareResp = (participant: Participant, transId: int, status: tTransStatus);

enum tTransStatus { SUCCESS, ERROR, TIMEOUT }

event eWriteTransReq : tWriteTransReq;
event eWriteTransResp : tWriteTransResp;
event eReadTransReq : tReadTransReq;
event eReadTransResp : tReadTransResp;

event ePrepareReq : tTrans;
event ePrepareResp : tPrepareResp;
event eCommitTrans : int;
event eAbortTrans : int;

event eInformCoordinator : Coordinator;
event eMonitor_AtomicityInitialize : int;

/* Seeded bugs, selected only by the bug-variant tests (PTst/BugTests.p),
   which send the coordinator eTwoPCBugConfig; TPC_NONE otherwise. */
enum tTwoPCBug { TPC_NONE, TPC_STALE_VOTE, TPC_TIMEOUT_COMMIT }
event eTwoPCBugConfig : tTwoPCBug;
