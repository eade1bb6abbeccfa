/* Two-phase commit (Gray 1978) with the cooperative termination protocol
   (Bernstein, Hadzilacos and Goodman, Concurrency Control and Recovery in
   Database Systems, 1987, chapter 7): types and events shared by every
   machine. Participants are numbered 1..n. */

// The seeded bugs; the test chooses one (TPC_NONE: the correct protocol).
enum tTpcBug {
  TPC_NONE,
  TPC_TERM_ABORT_UNCERTAIN,  // the termination protocol aborts although every participant is prepared
  TPC_PREPARED_TIMEOUT,      // a prepared participant aborts on its decision timeout
  TPC_FORGET_ABORT           // a participant that aborted before voting forgets it and votes yes
}

// A participant's state of a transaction.
enum tTxState { TX_INIT, TX_PREPARED, TX_COMMITTED, TX_ABORTED }

// coordinator <-> participants (through links)
event ePrepare : (txn: int, coord: int);   // coord: which coordinator asks
event eVote : (txn: int, participant: int, yes: bool);
event eDecision : (txn: int, commit: bool);
// recovery coordinator <-> participants (through links)
event eStateReq : (txn: int);
event eStateResp : (txn: int, participant: int, st: tTxState);

// environment -> machines (direct)
event eBegin : int;                         // driver -> a coordinator: run this transaction
event eTerminate : int;                     // a participant's timer -> recovery coordinator
event eDecisionTimeout : int;               // driver -> participant: its timer for this transaction fired
// machines -> environment (direct)
event eTxDone : (txn: int, commit: bool);   // a coordinator -> driver
event eTermDone : (txn: int, st: tTxState); // recovery coordinator -> driver (TX_PREPARED: blocked)

// for the specs: a decision taken (by a coordinator, decider >= 1, or the
// termination protocol, decider 0), and an outcome a participant applied
event eSpecDecided : (txn: int, decider: int, commit: bool);
event eSpecOutcome : (txn: int, participant: int, commit: bool);
