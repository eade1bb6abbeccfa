/* A Raft server (Figure 2 of the Raft paper), with single-server membership
   changes (Ongaro's dissertation, section 4.1): a configuration takes effect
   on each server as soon as its entry is in the server's log, committed or
   not, and a leader starts a change only when the previous one is
   committed and, after the fix of Ongaro's raft-dev post of 10 July 2015,
   only once an entry of its own term is committed (a new leader appends a
   no-op entry to get there).

   The environment (PTst/Driver.p) fires election timeouts (eTimeout) and
   sends client requests and configuration changes to whichever server it
   believes is the leader; a server that is not the leader drops them.
   Servers persist nothing across failures: the model has no crashes, only
   slow servers and slow or cut links. */
machine Server {
  var id: int;
  var driver: machine;
  var bug: tRaftBug;
  var numServers: int;
  var peers: map[int, machine];     // each other server, or the link to it
  var viaLinks: bool;
  var initConfig: set[int];         // the configuration before any E_CONFIG entry

  // persistent state
  var currentTerm: int;
  var votedFor: int;                // 0: none
  var log: seq[tEntry];             // log[i - 1] is the entry at index i
  // volatile state
  var commitIndex: int;
  // candidate
  var votes: set[int];
  // leader
  var nextIndex: map[int, int];
  var matchIndex: map[int, int];
  var pendingChanges: seq[(cmd: int, add: bool, server: int)];

  start state Init {
    entry (s: tServerSetup) {
      id = s.id;
      driver = s.driver;
      initConfig = s.config;
      numServers = s.numServers;
      bug = s.bug;
    }
    on eConnect goto Follower with (c: (peers: map[int, machine], viaLinks: bool)) {
      peers = c.peers;
      viaLinks = c.viaLinks;
    }
  }

  state Follower {
    on eTimeout goto Candidate;
    on eRequestVote do (m: tRequestVote) {
      HandleRequestVote(m);
    }
    on eAppendEntries do (m: tAppendEntries) {
      HandleAppendEntries(m);
    }
    on eRequestVoteResp do (m: tRequestVoteResp) {
      NewerTerm(m.term);
    }
    on eAppendEntriesResp do (m: tAppendEntriesResp) {
      NewerTerm(m.term);
    }
    ignore eClientRequest, eChangeConfig;
  }

  state Candidate {
    entry {
      var p: int;
      currentTerm = currentTerm + 1;
      votedFor = id;
      votes = default(set[int]);
      votes += (id);
      foreach (p in Config()) {
        if (p != id) {
          SendTo(p, eRequestVote, (term = currentTerm, candidate = id,
                                   lastLogIndex = sizeof(log), lastLogTerm = LastTerm()));
        }
      }
      if (Quorum(votes)) {
        goto Leader;
      }
    }
    on eTimeout goto Candidate;
    on eRequestVote do (m: tRequestVote) {
      if (HandleRequestVote(m)) {
        goto Follower;
      }
    }
    on eRequestVoteResp do (m: tRequestVoteResp) {
      if (NewerTerm(m.term)) {
        goto Follower;
      }
      if (m.term == currentTerm && m.granted) {
        votes += (m.voter);
        if (Quorum(votes)) {
          goto Leader;
        }
      }
    }
    on eAppendEntries do (m: tAppendEntries) {
      if (HandleAppendEntries(m)) {
        goto Follower;
      }
    }
    on eAppendEntriesResp do (m: tAppendEntriesResp) {
      if (NewerTerm(m.term)) {
        goto Follower;
      }
    }
    ignore eClientRequest, eChangeConfig;
  }

  state Leader {
    entry {
      var p: int;
      announce eSpecLeader, (term = currentTerm, leader = id, log = log);
      send driver, eLeaderElected, (leader = id, term = currentTerm);
      nextIndex = default(map[int, int]);
      matchIndex = default(map[int, int]);
      pendingChanges = default(seq[(cmd: int, add: bool, server: int)]);
      p = 1;
      while (p <= numServers) {
        nextIndex[p] = sizeof(log) + 1;
        matchIndex[p] = 0;
        p = p + 1;
      }
      // BUG ConfigNoNoop: no no-op entry, and (in ChangesAllowed) no wait
      // for an entry of this term to be committed before a configuration
      // change (the single-server algorithm before Ongaro's fix).
      if (bug == RAFT_CONFIG_NO_NOOP) {
        Broadcast();          // empty AppendEntries: the leader asserts itself
      } else {
        Append((term = currentTerm, kind = E_NOOP, cmd = 0, config = default(set[int])));
      }
    }
    on eClientRequest do (cmd: int) {
      Append((term = currentTerm, kind = E_CMD, cmd = cmd, config = default(set[int])));
    }
    on eChangeConfig do (c: (cmd: int, add: bool, server: int)) {
      pendingChanges += (sizeof(pendingChanges), c);
      StartChanges();
    }
    on eAppendEntriesResp do (m: tAppendEntriesResp) {
      if (NewerTerm(m.term)) {
        goto Follower;
      }
      if (m.term == currentTerm) {
        if (m.success) {
          if (m.matchIndex > matchIndex[m.follower]) {
            matchIndex[m.follower] = m.matchIndex;
          }
          nextIndex[m.follower] = matchIndex[m.follower] + 1;
          AdvanceCommit();
        } else {
          nextIndex[m.follower] = Max(1, Min(nextIndex[m.follower] - 1, m.matchIndex + 1));
          SendAppend(m.follower);
        }
      }
    }
    on eRequestVote do (m: tRequestVote) {
      if (HandleRequestVote(m)) {
        goto Follower;
      }
    }
    on eAppendEntries do (m: tAppendEntries) {
      if (HandleAppendEntries(m)) {
        goto Follower;
      }
    }
    on eRequestVoteResp do (m: tRequestVoteResp) {
      if (NewerTerm(m.term)) {
        goto Follower;
      }
    }
    ignore eTimeout;
  }

  /* ---- every role ---- */

  fun SendTo(p: int, e: event, payload: any) {
    if (viaLinks) {
      send peers[p], ePacket, (ev = e, payload = payload);
    } else {
      send peers[p], e, payload;
    }
  }

  // A message of a newer term: adopt it. True if the term changed.
  fun NewerTerm(term: int) : bool {
    if (term > currentTerm) {
      currentTerm = term;
      votedFor = 0;
      return true;
    }
    return false;
  }

  // RequestVote (Figure 2). True if the term changed (a candidate or leader
  // then steps down).
  fun HandleRequestVote(m: tRequestVote) : bool {
    var newer: bool;
    var granted: bool;
    newer = NewerTerm(m.term);
    granted = m.term == currentTerm && (votedFor == 0 || votedFor == m.candidate)
              && (m.lastLogTerm > LastTerm() || (m.lastLogTerm == LastTerm() && m.lastLogIndex >= sizeof(log)));
    if (granted) {
      votedFor = m.candidate;
    }
    SendTo(m.candidate, eRequestVoteResp, (term = currentTerm, voter = id, granted = granted));
    return newer;
  }

  // AppendEntries (Figure 2). True if the sender is a leader this server
  // must follow (a candidate or leader then steps down).
  fun HandleAppendEntries(m: tAppendEntries) : bool {
    var i: int;
    var idx: int;
    var last: int;
    // BUG StaleAppend: no "reply false if term < currentTerm": a request of
    // a deposed leader, delivered late, is applied like a current one.
    if (m.term < currentTerm && bug != RAFT_STALE_APPEND) {
      SendTo(m.leader, eAppendEntriesResp, (term = currentTerm, follower = id, success = false, matchIndex = sizeof(log)));
      return false;
    }
    NewerTerm(m.term);
    if (m.prevIndex > sizeof(log)) {
      SendTo(m.leader, eAppendEntriesResp, (term = currentTerm, follower = id, success = false, matchIndex = sizeof(log)));
      return m.term == currentTerm;
    }
    if (m.prevIndex > 0 && log[m.prevIndex - 1].term != m.prevTerm) {
      SendTo(m.leader, eAppendEntriesResp, (term = currentTerm, follower = id, success = false, matchIndex = m.prevIndex - 1));
      return m.term == currentTerm;
    }
    while (i < sizeof(m.entries)) {
      idx = m.prevIndex + 1 + i;
      if (idx <= sizeof(log) && log[idx - 1].term != m.entries[i].term) {
        Truncate(idx);
      }
      if (idx > sizeof(log)) {
        log += (sizeof(log), m.entries[i]);
      }
      i = i + 1;
    }
    last = m.prevIndex + sizeof(m.entries);
    if (Min(m.leaderCommit, last) > commitIndex) {
      commitIndex = Min(m.leaderCommit, last);
    }
    SendTo(m.leader, eAppendEntriesResp, (term = currentTerm, follower = id, success = true, matchIndex = last));
    return m.term == currentTerm;
  }

  // Removes the entries from index idx on.
  fun Truncate(idx: int) {
    var removed: seq[tEntry];
    while (sizeof(log) >= idx) {
      removed += (0, log[sizeof(log) - 1]);
      log -= (sizeof(log) - 1);
    }
    announce eSpecTruncate, (server = id, from = idx, removed = removed);
  }

  fun LastTerm() : int {
    if (sizeof(log) == 0) {
      return 0;
    }
    return log[sizeof(log) - 1].term;
  }

  // The configuration in effect: the last one in the log, committed or not.
  fun Config() : set[int] {
    var i: int;
    i = sizeof(log) - 1;
    while (i >= 0) {
      if (log[i].kind == E_CONFIG) {
        return log[i].config;
      }
      i = i - 1;
    }
    return initConfig;
  }

  // A majority of the configuration in effect.
  fun Quorum(s: set[int]) : bool {
    var cfg: set[int];
    var p: int;
    var n: int;
    cfg = Config();
    foreach (p in s) {
      if (p in cfg) {
        n = n + 1;
      }
    }
    return 2 * n > sizeof(cfg);
  }

  /* ---- leader ---- */

  fun Append(e: tEntry) {
    log += (sizeof(log), e);
    Broadcast();
    AdvanceCommit();
  }

  // AppendEntries to every other server of the configuration in effect.
  fun Broadcast() {
    var p: int;
    foreach (p in Config()) {
      if (p != id) {
        SendAppend(p);
      }
    }
  }

  fun SendAppend(p: int) {
    var prev: int;
    var entries: seq[tEntry];
    var i: int;
    prev = nextIndex[p] - 1;
    i = prev;
    while (i < sizeof(log)) {
      entries += (sizeof(entries), log[i]);
      i = i + 1;
    }
    if (prev == 0) {
      SendTo(p, eAppendEntries, (term = currentTerm, leader = id, prevIndex = 0, prevTerm = 0,
                                 entries = entries, leaderCommit = commitIndex));
    } else {
      SendTo(p, eAppendEntries, (term = currentTerm, leader = id, prevIndex = prev, prevTerm = log[prev - 1].term,
                                 entries = entries, leaderCommit = commitIndex));
    }
  }

  // Commits the highest index of this term that a majority stores (an entry
  // of an earlier term is committed only through it).
  fun AdvanceCommit() {
    var n: int;
    var stored: set[int];
    var p: int;
    n = sizeof(log);
    while (n > commitIndex) {
      if (log[n - 1].term == currentTerm) {
        stored = default(set[int]);
        stored += (id);
        foreach (p in keys(matchIndex)) {
          if (matchIndex[p] >= n) {
            stored += (p);
          }
        }
        if (Quorum(stored)) {
          break;
        }
      }
      n = n - 1;
    }
    while (commitIndex < n) {
      commitIndex = commitIndex + 1;
      announce eSpecCommit, (index = commitIndex, ent = log[commitIndex - 1]);
      if (log[commitIndex - 1].kind != E_NOOP) {
        send driver, eRequestDone, log[commitIndex - 1].cmd;
      }
    }
    StartChanges();
  }

  // Starts the pending configuration changes that are allowed now.
  fun StartChanges() {
    var c: (cmd: int, add: bool, server: int);
    var cfg: set[int];
    while (sizeof(pendingChanges) > 0 && ChangesAllowed()) {
      c = pendingChanges[0];
      pendingChanges -= (0);
      cfg = Config();
      if (c.add == (c.server in cfg)) {
        // already in effect (a retried request): nothing to do
        continue;
      }
      if (c.add) {
        cfg += (c.server);
        // a new server starts from an empty log (it is caught up by the
        // usual AppendEntries backtracking)
        nextIndex[c.server] = 1;
        matchIndex[c.server] = 0;
      } else {
        cfg -= (c.server);
      }
      Append((term = currentTerm, kind = E_CONFIG, cmd = c.cmd, config = cfg));
    }
  }

  // One change at a time (no uncommitted configuration entry), and only
  // once an entry of the leader's term is committed (Ongaro's fix).
  fun ChangesAllowed() : bool {
    var i: int;
    i = commitIndex;
    while (i < sizeof(log)) {
      if (log[i].kind == E_CONFIG) {
        return false;
      }
      i = i + 1;
    }
    // BUG ConfigNoNoop, ConfigNoWait: a new leader may change the
    // configuration before an entry of its term is committed.
    if (bug == RAFT_CONFIG_NO_NOOP || bug == RAFT_CONFIG_NO_WAIT) {
      return true;
    }
    return commitIndex > 0 && log[commitIndex - 1].term == currentTerm;
  }
}

// The driver -> a server: how to reach the others (links, or directly,
// each server's inbox then being one FIFO channel from all the others).
event eConnect : (peers: map[int, machine], viaLinks: bool);

fun Min(a: int, b: int) : int {
  if (a < b) {
    return a;
  }
  return b;
}

fun Max(a: int, b: int) : int {
  if (a > b) {
    return a;
  }
  return b;
}
