/* Multi-Paxos: types and events shared by every machine. */

// The seeded bugs; the test case chooses one (NONE: the correct protocol).
enum tBug { NONE, LATEP1B, FIRSTVALUE, STALEP2A, EARLYREPLY, STALENACK }

// Ballots are (round, leader id) pairs, compared lexicographically.
type tBallot = (round: int, lid: int);
// A proposal an acceptor accepted: the ballot and the value.
type tPValue = (ballot: tBallot, val: int);

// phase 1: a leader asks for promises for every slot at once
event eP1a : (leader: Leader, ballot: tBallot);
event eP1b : (acceptor: Acceptor, ballot: tBallot, accepted: map[int, tPValue]);
// phase 2: per slot
event eP2a : (leader: Leader, ballot: tBallot, slot: int, val: int);
event eP2b : (acceptor: Acceptor, ballot: tBallot, slot: int);
// an acceptor refuses: it has promised a higher ballot
event eNack : (ballot: tBallot);
// a leader tells the replicas what was chosen
event eDecision : (slot: int, val: int);

// leader change: the other leader's failure detector times out and it
// takes over with a ballot of the given round
event eTakeOver : (round: int);
event ePeer : Leader;
// internal to an acceptor: write the promise and the accepted values to disk
event eFlush;

// for the specs
event eSpecConfig : (nAcceptors: int, nReplicas: int, nSlots: int);
event eAccepted : (acceptor: Acceptor, ballot: tBallot, slot: int, val: int);
event eApplied : (replica: Replica, slot: int, val: int);

fun BallotLess(a: tBallot, b: tBallot) : bool {
  return a.round < b.round || (a.round == b.round && a.lid < b.lid);
}
