/* Safety: the caches are coherent. Never an exclusive holder together with
   another holder, and every valid copy holds the last value written
   (AuxData in the Murphi model). The caches announce every change of
   state and every write. */
spec CacheCoherence observes eSpecCacheState, eSpecWrite {
  var states: map[int, tCacheState];
  var auxData: int;

  start state Watching {
    on eSpecCacheState do (c: (client: int, st: tCacheState, value: int)) {
      var i: int;
      var numExcl: int;
      var numValid: int;
      states[c.client] = c.st;
      foreach (i in keys(states)) {
        if (states[i] == CS_E) {
          numExcl = numExcl + 1;
        }
        if (states[i] != CS_I) {
          numValid = numValid + 1;
        }
      }
      assert numExcl == 0 || numValid == 1,
        format("cache {0} entered {1}: an exclusive copy coexists with another copy ({2} valid, states {3})",
               c.client, c.st, numValid, states);
      if (c.st != CS_I) {
        assert c.value == auxData,
          format("cache {0} entered {1} with value {2}, but the last value written is {3}",
                 c.client, c.st, c.value, auxData);
      }
    }
    on eSpecWrite do (w: (client: int, value: int)) {
      assert w.client in states && states[w.client] == CS_E,
        format("cache {0} wrote without holding the line exclusively", w.client);
      auxData = w.value;
    }
  }
}

/* Liveness: every request is eventually granted. */
spec RequestsGranted observes eReqShared, eReqExcl, eSpecGranted {
  var pending: int;

  start cold state NoneWaiting {
    on eReqShared, eReqExcl goto Waiting with { pending = pending + 1; }
  }

  hot state Waiting {
    on eReqShared, eReqExcl do { pending = pending + 1; }
    on eSpecGranted do {
      pending = pending - 1;
      if (pending == 0) {
        goto NoneWaiting;
      }
    }
  }
}
