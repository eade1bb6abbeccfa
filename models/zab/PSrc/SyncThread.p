/* A server's log writer (ZooKeeper's SyncRequestProcessor followed by
   SendAckRequestProcessor, a thread of its own): it writes the
   transactions a follower hands it to disk and acknowledges each to the
   leader, over the follower's connection. The log itself is the server's
   history; this machine models the thread, so an acknowledgement can
   overtake (or trail) what the follower's main thread sends. */
machine SyncThread {
  var id: int;
  var peers: map[int, machine];
  var viaLinks: bool;

  start state Writing {
    entry (s: (id: int, peers: map[int, machine], viaLinks: bool)) {
      id = s.id;
      peers = s.peers;
      viaLinks = s.viaLinks;
    }
    on eLog do (m: (leader: int, conn: int, epoch: int, txns: seq[tTxn])) {
      var t: tTxn;
      foreach (t in m.txns) {
        if (viaLinks) {
          send peers[m.leader], ePacket, (ev = eAck, payload = (from = id, conn = m.conn, epoch = m.epoch, zxid = (epoch = t.epoch, counter = t.counter)));
        } else {
          send peers[m.leader], eAck, (from = id, conn = m.conn, epoch = m.epoch, zxid = (epoch = t.epoch, counter = t.counter));
        }
      }
    }
    on eCrash do { raise halt; }
  }
}
