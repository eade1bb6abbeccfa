/* The update propagation invariant of chain replication (section 3): every
   server's history is a prefix of its predecessor's, all of them prefixes
   of the head's sequence. Observed through the updates each server
   applies: each applies sequence number k + 1 after k, with neither gaps
   nor repeats, and every server applies the same update at each sequence
   number. */
spec UpdatePropagation observes eSpecApplied {
  var last: map[int, int];       // server -> last sequence number applied
  var update: map[int, tUpdate]; // sequence number -> its update

  start state Watching {
    on eSpecApplied do (m: (server: int, ent: tEntry)) {
      var prev: int;
      if (m.server in last) {
        prev = last[m.server];
      }
      assert m.ent.sn == prev + 1,
        format("server {0} applied update {1} with sequence number {2} after {3}",
               m.server, m.ent.upd, m.ent.sn, prev);
      assert !(m.ent.sn in update) || update[m.ent.sn] == m.ent.upd,
        format("sequence number {0} is {1} at one server and {2} at server {3}",
               m.ent.sn, update[m.ent.sn], m.ent.upd, m.server);
      last[m.server] = m.ent.sn;
      update[m.ent.sn] = m.ent.upd;
    }
  }
}

/* What the client sees: an update the tail acknowledged is reflected by
   every later query (the tail's history never loses it). */
event eSpecAcked : int;          // the client announces: sn acknowledged
event eSpecQueried : int;        // the client announces: a query reflected up to sn

spec AckedUpdatesVisible observes eSpecAcked, eSpecQueried {
  var acked: int;
  start state Watching {
    on eSpecAcked do (sn: int) {
      if (sn > acked) {
        acked = sn;
      }
    }
    on eSpecQueried do (sn: int) {
      assert sn >= acked,
        format("a query reflects the updates up to {0}, but update {1} was acknowledged before it", sn, acked);
    }
  }
}
