/* Chain replication (van Renesse and Schneider, OSDI 2004) with the
   reconfiguration of section 3: the master removes a failed server and
   relinks the chain around it. Types and events shared by every machine.
   Servers are numbered 1..n, the head first. */

// The seeded bugs; the test chooses one (CR_NONE: the correct protocol).
enum tCrBug {
  CR_NONE,
  CR_NO_RESEND,     // a predecessor relinked to a new successor does not resend its Sent list
  CR_NO_FENCE       // a server accepts forwards from a server that is no longer its predecessor
}

// An update as the client issues it (op identifies it), and as the chain
// orders it: the head gives it a sequence number.
type tUpdate = (op: int, val: int);
type tEntry = (sn: int, upd: tUpdate);

// client <-> chain (through links)
event eClientUpdate : tUpdate;                  // client -> head
event eQuery : int;                             // client -> tail (a query id)
// chain -> client (direct)
event eUpdateAck : (op: int, sn: int);          // tail -> client
event eQueryResp : (qid: int, lastSn: int);     // tail -> client: the updates it reflects

// inside the chain (through links)
event eForward : (from: int, ent: tEntry);      // server -> successor
event eAck : (from: int, sn: int);              // server -> predecessor: sn is at the tail (cumulative)

// failures and reconfiguration (direct)
event eCrash;                                   // environment -> server: it halts
event eServerFailed : int;                      // failure detector -> master
event eNewPred : int;                           // master -> successor of a removed server
event eNewPredAck : (server: int, lastSn: int); // successor -> master
event eNewSucc : (succ: int, lastSn: int);      // master -> predecessor of a removed server
event eBecomeHead;                              // master -> the new head
event eBecomeTail;                              // master -> the new tail
event eChainChanged : (head: int, tail: int);   // master -> client

// for the specs
event eSpecApplied : (server: int, ent: tEntry);
