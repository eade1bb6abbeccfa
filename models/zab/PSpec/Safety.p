/* Zab's safety, observed through what the servers announce: every server
   delivers the same transaction at each position of the sequence it
   delivers (Zab's agreement and total order; a prefix of one sequence is
   a prefix of the other), and no server removes from its log a
   transaction it delivered. */
spec ZabSafety observes eSpecDeliver, eSpecTruncate {
  var deliveredAt: map[int, tTxn];      // position -> the transaction delivered there
  var count: map[int, int];             // per server, how many it delivered

  start state Watching {
    on eSpecDeliver do (m: (server: int, pos: int, txn: tTxn)) {
      assert !(m.pos in deliveredAt) || deliveredAt[m.pos] == m.txn,
        format("server {0} delivers {1} at position {2}, where {3} was delivered",
               m.server, m.txn, m.pos, deliveredAt[m.pos]);
      deliveredAt[m.pos] = m.txn;
      count[m.server] = m.pos;
    }
    on eSpecTruncate do (m: (server: int, from: int, removed: seq[tTxn])) {
      assert !(m.server in count) || m.from > count[m.server],
        format("server {0} truncates its log from position {1}, but delivered {2} transactions; removed: {3}",
               m.server, m.from, count[m.server], m.removed);
    }
  }
}
