/* Raft (Ongaro and Ousterhout, USENIX ATC 2014; Ongaro's dissertation,
   2014, chapter 4 for single-server membership changes): types and events
   shared by every machine. Servers are numbered 1..n. */

// The seeded bugs; the test chooses one (RAFT_NONE: the correct protocol).
enum tRaftBug {
  RAFT_NONE,
  RAFT_CONFIG_NO_NOOP,    // a new leader changes the configuration before committing an entry of its term
  RAFT_CONFIG_NO_WAIT,    // the same, although the leader appends a no-op entry first
  RAFT_STALE_APPEND       // a follower accepts AppendEntries from a leader of an earlier term
}

enum tEntryKind { E_NOOP, E_CMD, E_CONFIG }
// A log entry. cmd identifies a client request or a configuration change;
// config is the new configuration of an E_CONFIG entry.
type tEntry = (term: int, kind: tEntryKind, cmd: int, config: set[int]);

// Server <-> server, through the links (PSrc/Link.p).
type tRequestVote = (term: int, candidate: int, lastLogIndex: int, lastLogTerm: int);
type tRequestVoteResp = (term: int, voter: int, granted: bool);
type tAppendEntries = (term: int, leader: int, prevIndex: int, prevTerm: int,
                       entries: seq[tEntry], leaderCommit: int);
// matchIndex: on success the index of the last entry the request covered;
// on failure a hint: the follower's log ends at or before matchIndex + 1.
type tAppendEntriesResp = (term: int, follower: int, success: bool, matchIndex: int);
event eRequestVote : tRequestVote;
event eRequestVoteResp : tRequestVoteResp;
event eAppendEntries : tAppendEntries;
event eAppendEntriesResp : tAppendEntriesResp;

// The environment (the test driver) -> a server.
event eTimeout;                                            // the election timer fired
event eClientRequest : int;                                // a command, to the leader
event eChangeConfig : (cmd: int, add: bool, server: int);  // add or remove one server
// A server -> the environment.
event eLeaderElected : (leader: int, term: int);
event eRequestDone : int;                                  // the entry with this cmd is committed

// For the specs.
event eSpecLeader : (term: int, leader: int, log: seq[tEntry]);
event eSpecCommit : (index: int, ent: tEntry);
event eSpecTruncate : (server: int, from: int, removed: seq[tEntry]);

type tServerSetup = (id: int, driver: machine, config: set[int], numServers: int, bug: tRaftBug);
