/* The master (section 3): told of a failed server by the failure detector,
   it removes the server from the chain and relinks it; one failure at a
   time. */
machine Master {
  var chain: seq[int];
  var servers: map[int, Server];
  var client: machine;
  var removed: int;

  start state Init {
    entry (s: (servers: map[int, Server], chain: seq[int], client: machine)) {
      client = s.client;
    }
    on eSetUp goto Watching with (s: (servers: map[int, Server], chain: seq[int])) {
      servers = s.servers;
      chain = s.chain;
    }
    defer eServerFailed;
  }

  state Watching {
    on eServerFailed do (s: int) {
      var i: int;
      i = IndexOf(s);
      if (i < 0 || sizeof(chain) == 1) {
        return;
      }
      chain -= (i);
      removed = s;
      if (i == 0) {
        send servers[chain[0]], eBecomeHead;
        Announce();
      } else if (i == sizeof(chain)) {
        send servers[chain[i - 1]], eBecomeTail;
        Announce();
      } else {
        // first the successor, which tells what it has
        send servers[chain[i]], eNewPred, chain[i - 1];
        goto Relinking;
      }
    }
  }

  state Relinking {
    defer eServerFailed;
    on eNewPredAck do (m: (server: int, lastSn: int)) {
      var i: int;
      i = IndexOf(m.server);
      send servers[chain[i - 1]], eNewSucc, (succ = m.server, lastSn = m.lastSn);
      Announce();
      goto Watching;
    }
  }

  fun Announce() {
    send client, eChainChanged, (head = chain[0], tail = chain[sizeof(chain) - 1]);
  }

  fun IndexOf(s: int) : int {
    var i: int;
    while (i < sizeof(chain)) {
      if (chain[i] == s) {
        return i;
      }
      i = i + 1;
    }
    return -1;
  }
}
