/* Viewstamped Replication (Liskov and Cowling, "Viewstamped Replication
   Revisited", MIT-CSAIL-TR-2012-021): types and events shared by every
   machine. Replicas are numbered 0..n-1; the primary of view v is replica
   v mod n. Op-numbers (log positions) start at 1. */

// The seeded bugs; the test chooses one (VR_NONE: the correct protocol).
enum tVRBug {
  VR_NONE,
  VR_LONGEST_LOG,        // the new primary takes the longest log, ignoring the view it was last normal in
  VR_STALE_PREPARE       // a backup accepts a PREPARE of an older view if its op-number is the next one
}

// A log entry: the client operation and the view in which it was assigned
// its op-number.
type tEntry = (view: int, op: int);

// Replica <-> replica, through the links (PSrc/Link.p).
type tPrepare = (view: int, opNum: int, ent: tEntry, commit: int);
// opNum: the replica's log holds every op up to opNum (acknowledgements
// are cumulative: a backup appends in op-number order).
type tPrepareOk = (view: int, opNum: int, from: int);
type tCommit = (view: int, commit: int);
type tStartViewChange = (view: int, from: int);
type tDoViewChange = (view: int, log: seq[tEntry], lastNormal: int, commit: int, from: int);
type tStartView = (view: int, log: seq[tEntry], commit: int);
event ePrepare : tPrepare;
event ePrepareOk : tPrepareOk;
event eCommit : tCommit;
event eStartViewChange : tStartViewChange;
event eDoViewChange : tDoViewChange;
event eStartView : tStartView;

// The environment (the test driver) -> a replica.
event eRequest : int;                       // a client operation (a session's request)
event ePing : int;                          // a session's keep-alive (a session id): no operation
event eTimeout : int;                       // the failure detector suspects the primary of this view
event eCrash;                               // the replica stops for good
// A replica -> the environment.
event eOpCommitted : int;                   // the primary committed this operation
event eViewStarted : (view: int, primary: int);

// For the spec.
event eSpecCommit : (opNum: int, ent: tEntry);
event eSpecExecute : (replica: int, opNum: int, ent: tEntry);
event eSpecNewView : (view: int, primary: int, log: seq[tEntry]);
event eSpecLog : (replica: int, view: int, log: seq[tEntry]);

type tReplicaSetup = (id: int, n: int, driver: machine, bug: tVRBug);
// Sent once every replica exists: how to reach every other replica.
event eConnect : (peers: map[int, machine], viaLinks: bool);
