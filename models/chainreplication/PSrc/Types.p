/* Chain replication (van Renesse and Schneider, OSDI 2004): types and
   events shared by every machine. */

// The seeded bugs; the test case chooses one (NONE: the correct protocol).
enum tBug { NONE, BOOTCRASH, NEIGHBOURS, STALEACK, NOFENCE, TAILNOACK }

// An update as the client issues it; op identifies it (client id * 10 + n).
type tUpdate = (client: Client, op: int, val: int);
// An update in the chain: the head gives it a sequence number.
type tEntry = (sn: int, upd: tUpdate);

// client <-> chain
event eUpdate : tUpdate;                                   // client -> head
event eUpdateAck : (op: int, sn: int);                    // tail -> client
event eQuery : (client: Client, op: int);                  // client -> tail
event eQueryResp : (op: int, sn: int, val: int);          // tail -> client

// inside the chain
event eForward : (from: Server, ent: tEntry);            // server -> successor
event eAck : (sn: int);                                   // server -> predecessor (cumulative)

// bootstrap: the master configures the head, each server its successor
event eSetup : (chain: seq[Server], index: int);
event eSetupDone;                                          // tail -> master
event eStart : (head: Server, tail: Server);               // master -> clients, injector

// failures and reconfiguration
event eCrash;                                              // fault injector -> server
event eFailure : Server;                                   // failure detector -> master
event eBecomeHead;                                         // master -> new head
event eBecomeTail;                                         // master -> new tail
event eNewPred : (pred: Server, epoch: int);               // master -> successor of a removed server
event eNewPredAck : (server: Server, epoch: int, lastSeq: int);   // successor -> master
event eNewSucc : (succ: Server, lastSeq: int);             // master -> predecessor of a removed server
event eChainChanged : (head: Server, tail: Server);        // master -> clients

// for the specs
event eApplied : (server: Server, ent: tEntry);

// for explorers: who is who, and when the chain is up
enum tRole { ROLE_SERVER, ROLE_MASTER, ROLE_INJECTOR, ROLE_CLIENT, ROLE_DRIVER }
event eRole : (m: machine, role: tRole);
event eInitDone;
event eConfigure : (chain: seq[Server], injector: FaultInjector);   // test driver -> master
