/* Safety: every server applies the same updates in the same order: the
   n-th update a server applies has sequence number n, and every server
   applies the same update under a sequence number. */
spec UpdateOrder observes eApplied {
  var bySeq: map[int, int];            // sequence number -> op
  var last: map[machine, int];         // server -> last sequence number applied
  start state Watch {
    on eApplied do (a: (server: Server, ent: tEntry)) {
      var prev: int;
      if (a.server in last) { prev = last[a.server]; }
      assert a.ent.sn == prev + 1,
        format("a server applied update {0} as number {1} after number {2}", a.ent.upd.op, a.ent.sn, prev);
      last[a.server] = a.ent.sn;
      if (a.ent.sn in bySeq) {
        assert bySeq[a.ent.sn] == a.ent.upd.op,
          format("servers disagree on update number {0}: {1} and {2}", a.ent.sn, bySeq[a.ent.sn], a.ent.upd.op);
      } else {
        bySeq[a.ent.sn] = a.ent.upd.op;
      }
    }
  }
}

/* Safety: a query never returns a value older than an update acknowledged
   before the query was issued (the tail is the point of linearization). */
spec FreshQueries observes eUpdateAck, eQuery, eQueryResp {
  var maxAcked: int;                   // highest sequence number acknowledged to a client
  var needed: map[int, int];           // query -> maxAcked when it was first issued
  start state Watch {
    on eUpdateAck do (a: (op: int, sn: int)) {
      if (a.sn > maxAcked) { maxAcked = a.sn; }
    }
    on eQuery do (q: (client: Client, op: int)) {
      if (!(q.op in needed)) { needed[q.op] = maxAcked; }
    }
    on eQueryResp do (r: (op: int, sn: int, val: int)) {
      assert r.sn >= needed[r.op],
        format("query {0} returned update number {1}, but number {2} was acknowledged before it was issued",
               r.op, r.sn, needed[r.op]);
    }
  }
}

/* Liveness: every update a client issues is eventually acknowledged, and
   every query answered. (A client's retry of a request that was already
   answered opens nothing.) */
spec Progress observes eUpdate, eUpdateAck, eQuery, eQueryResp {
  var open: set[int];
  var answered: set[int];
  start cold state Idle {
    on eUpdate do (u: tUpdate) { Open(u.op); }
    on eQuery do (q: (client: Client, op: int)) { Open(q.op); }
    on eUpdateAck do (a: (op: int, sn: int)) { answered += (a.op); }
    on eQueryResp do (r: (op: int, sn: int, val: int)) { answered += (r.op); }
  }
  hot state Busy {
    on eUpdate do (u: tUpdate) { Open(u.op); }
    on eQuery do (q: (client: Client, op: int)) { Open(q.op); }
    on eUpdateAck do (a: (op: int, sn: int)) { Close(a.op); }
    on eQueryResp do (r: (op: int, sn: int, val: int)) { Close(r.op); }
  }
  fun Open(op: int) {
    if (!(op in answered)) {
      open += (op);
      goto Busy;
    }
  }
  fun Close(op: int) {
    answered += (op);
    open -= (op);
    if (sizeof(open) == 0) { goto Idle; }
  }
}
