/* Leader election on a unidirectional ring (Chang-Roberts, or LCR): types
   and events shared by every machine. */

/* The seeded bugs; L_NONE is the correct protocol. */
enum tLeBug { L_NONE, L_STALE_TIMEOUT, L_WAKE_FORWARD, L_RELAY_DROP, L_LEADER_TWICE }

type tNodeInit = (id: int, bug: tLeBug);
type tNodeConfig = (succ: Node, initiator: bool, retransmit: bool);
type tRingConfig = (ids: seq[int], allInitiate: bool, retransmit: bool, bug: tLeBug);

event eConfig : tNodeConfig;   // driver to node: its successor and role
event eElect : int;            // a candidate's id travelling around the ring
event eLeader : int;           // the leader's announcement travelling around the ring

// announced for the specs
event eSpecRing : seq[int];    // the ids of the ring, before any node runs
event eSpecElected : int;      // a node has received its own id back
event eSpecLearned : (node: int, leader: int);   // a node has learned the leader
