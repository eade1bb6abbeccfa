/* Safety (atomicity and durability of transfers): a participant
   acknowledges a commit only when its write is on every live storage
   server of its chain, so a transaction reported committed has its writes
   on every live storage server of both chains; a transaction reported
   aborted has its writes nowhere, ever; and no storage server applies a
   transaction's write twice. */
spec Atomicity observes eSpecChains, eStored, eTxResult, eStorageFailure, eCommitAck {
  var chains: seq[seq[StorageServer]];
  var chainOf: map[Participant, seq[StorageServer]];
  var failed: set[StorageServer];
  var stored: map[StorageServer, set[int]];
  var aborted: set[int];

  start state Init {
    on eSpecChains goto Watch with (c: (participants: seq[Participant], chains: seq[seq[StorageServer]])) {
      var i: int;
      chains = c.chains;
      while (i < sizeof(chains)) {
        chainOf[c.participants[i]] = chains[i];
        i = i + 1;
      }
    }
  }

  state Watch {
    on eStorageFailure do (s: StorageServer) { failed += (s); }

    on eStored do (st: (server: StorageServer, txid: int, delta: int)) {
      if (!(st.server in stored)) { stored[st.server] = default(set[int]); }
      assert !(st.txid in stored[st.server]),
        format("a storage server applied the write of transaction {0} twice", st.txid);
      assert !(st.txid in aborted),
        format("a storage server applied the write of transaction {0}, which was aborted", st.txid);
      stored[st.server] += (st.txid);
    }

    on eCommitAck do (a: (participant: Participant, txid: int)) {
      var s: StorageServer;
      foreach (s in chainOf[a.participant]) {
        if (!(s in failed)) {
          assert s in stored && a.txid in stored[s],
            format("a participant acknowledged the commit of transaction {0} before a live storage server of its chain had it", a.txid);
        }
      }
    }

    on eTxResult do (r: (txid: int, committed: bool)) {
      var chain: seq[StorageServer];
      var s: StorageServer;
      foreach (chain in chains) {
        foreach (s in chain) {
          if (r.committed && !(s in failed)) {
            assert s in stored && r.txid in stored[s],
              format("transaction {0} was reported committed before a live storage server had it", r.txid);
          }
          if (!r.committed) {
            assert !(s in stored) || !(r.txid in stored[s]),
              format("transaction {0} was reported aborted but a storage server has it", r.txid);
          }
        }
      }
      if (!r.committed) { aborted += (r.txid); }
    }
  }
}

/* Liveness: every transaction is eventually answered. */
spec Progress observes eTxReq, eTxResult {
  var open: int;
  start cold state Idle {
    on eTxReq goto Busy with { open = open + 1; }
  }
  hot state Busy {
    on eTxReq do { open = open + 1; }
    on eTxResult do {
      open = open - 1;
      if (open == 0) { goto Idle; }
    }
  }
}
