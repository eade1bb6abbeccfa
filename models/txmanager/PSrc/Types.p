/* A transaction manager: two-phase commit across participants, each of
   which keeps its account on a chain of two storage servers (chain
   replication: writes go to the head and are acknowledged by the tail).
   Types and events shared by every machine. */

// The seeded bugs; the test case chooses one (NONE: the correct protocol).
enum tBug { NONE, EARLYABORT, HEADACK, TAILCRASH, NODEDUP, ANYACK }

// A transfer: move `amount` from the first participant's account to the
// second's (delta -amount and +amount).
type tTx = (client: Client, txid: int, amount: int);

// client <-> coordinator
event eTxReq : tTx;
event eTxResult : (txid: int, committed: bool);

// two-phase commit: coordinator <-> participants
event ePrepare : (coordinator: Coordinator, txid: int, delta: int);
event eVote : (participant: Participant, txid: int, yes: bool);
event eCommit : int;
event eAbort : int;
event eCommitAck : (participant: Participant, txid: int);

// participant <-> its storage chain
type tWrite = (participant: Participant, txid: int, delta: int);
event eWrite : tWrite;                                       // participant -> head, head -> tail
event eWriteAck : int;                                       // tail -> participant
event eBecomeTail;                                           // participant -> head

// faults
event eCrash;                                                // injector -> storage server
event eStorageFailure : StorageServer;                       // injector -> participant

// for the specs
event eSpecChains : (participants: seq[Participant], chains: seq[seq[StorageServer]]);
event eStored : (server: StorageServer, txid: int, delta: int);
