/* Raft's safety properties (Figure 3 of the Raft paper), observed through
   what the servers announce:
   - Election Safety: at most one leader per term;
   - Leader Completeness: a new leader's log holds every committed entry;
   - State Machine Safety: no two different entries are committed at one
     index;
   - and, a consequence of the three that Raft's proof uses: a committed
     entry is never removed from a server's log (a follower truncates its
     log only where it conflicts with a current leader's, which holds every
     committed entry). */
spec RaftSafety observes eSpecLeader, eSpecCommit, eSpecTruncate {
  var leaderOf: map[int, int];
  var committed: map[int, tEntry];

  start state Watching {
    on eSpecLeader do (m: (term: int, leader: int, log: seq[tEntry])) {
      var idx: int;
      assert !(m.term in leaderOf) || leaderOf[m.term] == m.leader,
        format("Election Safety: servers {0} and {1} are both leaders of term {2}",
               leaderOf[m.term], m.leader, m.term);
      leaderOf[m.term] = m.leader;
      foreach (idx in keys(committed)) {
        assert idx <= sizeof(m.log) && m.log[idx - 1] == committed[idx],
          format("Leader Completeness: server {0}, leader of term {1}, lacks the entry {2} committed at index {3}; its log: {4}",
                 m.leader, m.term, committed[idx], idx, m.log);
      }
    }
    on eSpecCommit do (m: (index: int, ent: tEntry)) {
      assert !(m.index in committed) || committed[m.index] == m.ent,
        format("State Machine Safety: {0} and {1} both committed at index {2}",
               committed[m.index], m.ent, m.index);
      committed[m.index] = m.ent;
    }
    on eSpecTruncate do (m: (server: int, from: int, removed: seq[tEntry])) {
      var i: int;
      while (i < sizeof(m.removed)) {
        assert !((m.from + i) in committed && committed[m.from + i] == m.removed[i]),
          format("server {0} removed the committed entry {1} at index {2}",
                 m.server, m.removed[i], m.from + i);
        i = i + 1;
      }
    }
  }
}
