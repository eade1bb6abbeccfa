/* Events and types of the replicated key-value store: clients write and
   read keys through a primary; the primary keeps the log of writes, which
   the replicas pull from it, and hands each read to one of the replicas. */
type tWriteReq = (client: Client, key: int, val: int, rId: int);
type tWriteResp = (rId: int, key: int, version: int);
type tReadReq = (client: Client, key: int, rId: int);
type tReadResp = (rId: int, key: int, val: int, version: int);

/* One write of the log: version v is the v-th write the primary took. */
type tEntry = (version: int, key: int, val: int);
/* What a replica holds for a key: the value and the version that wrote it. */
type tVersioned = (val: int, version: int);

/* The seeded bugs; STORE_NONE is the correct protocol. */
enum tStoreBug { STORE_NONE, STORE_SKIP_REPLICA, STORE_IDLE_STOP, STORE_ACK_ON_DATA }

type tStoreConfig = (numReplicas: int, bug: tStoreBug);
type tReplicaConfig = (primary: Primary, bug: tStoreBug);
type tClientConfig = (store: Primary, id: int, key: int, numWrites: int, readBack: bool);

// client <-> store
event eWriteReq : tWriteReq;
event eWriteResp : tWriteResp;
event eReadReq : tReadReq;
event eReadResp : tReadResp;

// primary <-> replicas
event eFetch : (replica: Replica, applied: int);   // replica -> primary: send me the log after `applied`
event eFetchResp : seq[tEntry];                    // primary -> replica: the entries it lacks (maybe none)
event eReplicaRead : tReadReq;                     // primary -> replica: serve this read
