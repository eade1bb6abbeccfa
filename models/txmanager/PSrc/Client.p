/* A client issues its transfers one at a time. */
machine Client {
  var id: int;
  var n: int;
  var coordinator: Coordinator;

  start state Init {
    entry (cfg: (id: int, n: int, coordinator: Coordinator)) {
      id = cfg.id;
      n = cfg.n;
      coordinator = cfg.coordinator;
      goto Issue;
    }
  }

  state Issue {
    entry {
      if (n == 0) { goto Done; }
      send coordinator, eTxReq, (client = this, txid = id * 10 + n, amount = n);
      n = n - 1;
    }
    on eTxResult goto Issue;
  }

  state Done { }
}
