/* ZooKeeper's atomic broadcast (Zab; Junqueira, Reed and Serafini, DSN
   2011, as implemented in ZooKeeper since 3.4): types and events shared by
   every machine. Servers are numbered 1..n. A transaction id (zxid) is a
   pair (epoch, counter) ordered lexicographically; the counter restarts at
   1 in each epoch. */

// The seeded bugs; the test chooses one (ZAB_NONE: the correct protocol).
enum tZabBug {
  ZAB_NONE,
  ZAB_DIFF_WITHOUT_TRUNC,   // the leader sends a DIFF to a follower whose last zxid it does not have (ZOOKEEPER-1154)
  ZAB_COMMIT_BEFORE_UPTODATE // a follower forgets its pending proposals at NEWLEADER; a COMMIT before UPTODATE finds none (ZOOKEEPER-4394)
}

type tZxid = (epoch: int, counter: int);
type tTxn = (epoch: int, counter: int, value: int);
enum tPeerState { LOOKING, FOLLOWING, LEADING }
// A vote of fast leader election: the proposed leader, its current epoch
// and last zxid.
type tVote = (leader: int, epoch: int, zxid: tZxid);

// Server <-> server, through the links (PSrc/Link.p). Every message but a
// notification carries the epoch its sender is establishing or leads, and
// the connection it belongs to: a follower opens a new connection to its
// leader each time it starts following (its conn counter), and messages of
// an earlier connection are dropped, as when a TCP connection is closed.
type tNotification = (from: int, vote: tVote, round: int, peerState: tPeerState);
type tFollowerInfo = (from: int, conn: int, acceptedEpoch: int);
type tLeaderInfo = (from: int, conn: int, epoch: int);
type tAckEpoch = (from: int, conn: int, epoch: int, currentEpoch: int, lastZxid: tZxid);
// A DIFF (trunc false) or a TRUNC to truncTo followed by a DIFF: the
// leader's transactions after the follower's last one (committed), then
// the proposals the leader has not committed yet (outstanding).
type tSync = (from: int, conn: int, epoch: int, trunc: bool, truncTo: tZxid, diff: seq[tTxn], outstanding: seq[tTxn]);
type tEpochMsg = (from: int, conn: int, epoch: int);
type tProposal = (from: int, conn: int, epoch: int, txn: tTxn);
type tAckZxid = (from: int, conn: int, epoch: int, zxid: tZxid);
event eNotification : tNotification;
event eFollowerInfo : tFollowerInfo;
event eLeaderInfo : tLeaderInfo;
event eAckEpoch : tAckEpoch;
event eSync : tSync;
event eNewLeader : tEpochMsg;
event eAckNewLeader : tEpochMsg;
event eUpToDate : tEpochMsg;
event eProposal : tProposal;
event eAck : tAckZxid;
event eCommit : tAckZxid;

// The environment (the test driver) -> a server.
event eRequest : int;      // a client's write (a session's request)
event ePing : int;         // a session's keep-alive (a session id)
event eTimeout;            // the failure detector fires: the leader (or the quorum) is lost, or the election stalls
event eCrash;              // the server stops for good
// A server -> the environment.
event eCommitted : int;                           // the leader committed this write
event eLeading : (leader: int, epoch: int);       // a leader established its epoch
event eSynced : (server: int, leader: int);       // a follower got UPTODATE

// For the spec.
event eSpecDeliver : (server: int, pos: int, txn: tTxn);
event eSpecTruncate : (server: int, from: int, removed: seq[tTxn]);

// A follower -> its log writer (PSrc/SyncThread.p): transactions to write
// to disk and then acknowledge to the leader.
event eLog : (leader: int, conn: int, epoch: int, txns: seq[tTxn]);

type tServerSetup = (id: int, n: int, driver: machine, bug: tZabBug);
// Sent once every server exists: how to reach every other server, and the
// server's log writer.
event eConnect : (peers: map[int, machine], viaLinks: bool, logWriter: machine);
