/* German's cache coherence protocol: types and events shared by every
   machine. The protocol's three channels are separate events: chan1
   (client to home: requests), chan2 (home to client: invalidations and
   grants) and chan3 (client to home: invalidation acknowledgements). Each
   machine's FIFO inbox merges the channels that lead to it. */
enum tCacheState { CS_I, CS_S, CS_E }
enum tHomeCmd { CMD_EMPTY, CMD_REQS, CMD_REQE }

/* The seeded bugs; G_NONE is the correct protocol. */
enum tGermanBug { G_NONE, G_EARLY_GRANT, G_ACK_DATA_LOST, G_STALE_UPGRADE, G_INV_UNHANDLED, G_SELF_INV }

type tGermanConfig = (numClients: int, numOps: int, bug: tGermanBug);
type tCacheConfig = (home: Home, id: int, numOps: int, bug: tGermanBug);
type tInvAck = (client: Cache, value: int, wasExcl: bool);

// chan1: requests
event eReqShared : Cache;
event eReqExcl : Cache;
// chan2: invalidations and grants (a grant carries the data)
event eInv;
event eGntS : int;
event eGntE : int;
// chan3: invalidation acknowledgements (an exclusive owner writes its data back)
event eInvAck : tInvAck;

// announced for the specs: a cache changed state, an owner wrote, a grant arrived
event eSpecCacheState : (client: int, st: tCacheState, value: int);
event eSpecWrite : (client: int, value: int);
event eSpecGranted : Cache;
