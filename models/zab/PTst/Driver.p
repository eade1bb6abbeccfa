/* The environment of a ZooKeeper ensemble: it creates the servers, a link
   between every two of them and each server's log writer, then plays a test's plan: failure
   detector timeouts (a server starts, or restarts, leader election),
   client writes (each client has its own session, one connection to each
   server it talks to, created when first used), session keep-alives,
   crashes, and cutting or healing links. An action may wait for its
   outcome (a write: until it is committed); WaitLeader and WaitSynced
   wait until a server leads an established epoch, or has synchronized
   with its leader. Nothing else is scripted: which message moves when is
   the scheduler's choice. */
enum tActionKind { A_TIMEOUT, A_REQUEST, A_PING, A_CRASH, A_CUT, A_CUT_IN, A_HEAL, A_HEAL_OUT,
                   A_WAIT_LEADER, A_WAIT_SYNCED, A_WAIT_COMMIT }
// target: the server the action goes to (or waits for); session: the
// client session of a write or ping; value: the write's value (or the
// value waited for); peers: for A_CUT and A_HEAL, the servers whose links
// with target (both ways) are cut or healed; for A_CUT_IN, the servers
// whose links to target are cut; for A_HEAL_OUT, those whose links from
// target are healed.
type tAction = (kind: tActionKind, target: int, session: int, value: int, peers: set[int], wait: bool);
// viaLinks: servers talk through links and sessions are links too;
// otherwise every message goes straight to its receiver (smaller state
// spaces).
type tZabSetup = (n: int, bug: tZabBug, viaLinks: bool, plan: seq[tAction]);

machine Driver {
  var servers: map[int, Server];
  var links: map[int, map[int, Link]];       // links[a][b]: from server a to server b
  var sessions: map[int, map[int, machine]]; // sessions[s][r]: session s's connection to server r
  var viaLinks: bool;
  var plan: seq[tAction];
  var pc: int;
  var committed: set[int];
  var leading: set[int];                     // servers that established an epoch (ever)
  var synced: set[int];                      // servers that synchronized with a leader (ever)
  var waitFor: tAction;

  start state Init {
    entry (s: tZabSetup) {
      var a: int;
      var b: int;
      var out: map[int, Link];
      var routes: map[int, machine];
      plan = s.plan;
      viaLinks = s.viaLinks;
      a = 1;
      while (a <= s.n) {
        servers[a] = new Server((id = a, n = s.n, driver = this, bug = s.bug));
        a = a + 1;
      }
      a = 1;
      while (a <= s.n) {
        out = default(map[int, Link]);
        routes = default(map[int, machine]);
        b = 1;
        while (b <= s.n) {
          if (a != b) {
            if (viaLinks) {
              out[b] = new Link(servers[b]);
              routes[b] = out[b];
            } else {
              routes[b] = servers[b];
            }
          }
          b = b + 1;
        }
        links[a] = out;
        send servers[a], eConnect, (peers = routes, viaLinks = viaLinks,
                                    logWriter = new SyncThread((id = a, peers = routes, viaLinks = viaLinks)));
        a = a + 1;
      }
      goto Running;
    }
  }

  state Running {
    entry {
      var act: tAction;
      while (pc < sizeof(plan)) {
        act = plan[pc];
        pc = pc + 1;
        Do(act);
        if (act.wait && !Done(act)) {
          waitFor = act;
          goto Waiting;
        }
      }
      goto Finished;
    }
    on eCommitted do (v: int) { committed += (v); }
    on eLeading do (m: (leader: int, epoch: int)) { leading += (m.leader); }
    on eSynced do (m: (server: int, leader: int)) { synced += (m.server); }
  }

  state Waiting {
    on eCommitted do (v: int) {
      committed += (v);
      if (Done(waitFor)) {
        goto Running;
      }
    }
    on eLeading do (m: (leader: int, epoch: int)) {
      leading += (m.leader);
      if (Done(waitFor)) {
        goto Running;
      }
    }
    on eSynced do (m: (server: int, leader: int)) {
      synced += (m.server);
      if (Done(waitFor)) {
        goto Running;
      }
    }
  }

  state Finished {
    ignore eCommitted, eLeading, eSynced;
  }

  /* Whether what the action waits for has happened. */
  fun Done(act: tAction) : bool {
    if (act.kind == A_REQUEST || act.kind == A_WAIT_COMMIT) {
      return act.value in committed;
    }
    if (act.kind == A_WAIT_LEADER) {
      return act.target in leading;
    }
    if (act.kind == A_WAIT_SYNCED) {
      return act.target in synced;
    }
    return true;
  }

  /* Session s's connection to server r (created on first use). */
  fun Session(s: int, r: int) : machine {
    var m: map[int, machine];
    if (!(s in sessions)) {
      sessions[s] = m;
    }
    if (!(r in sessions[s])) {
      if (viaLinks) {
        sessions[s][r] = new Link(servers[r]);
      } else {
        sessions[s][r] = servers[r];
      }
    }
    return sessions[s][r];
  }

  fun Deliver(dst: machine, e: event, payload: any) {
    if (viaLinks) {
      send dst, ePacket, (ev = e, payload = payload);
    } else {
      send dst, e, payload;
    }
  }

  fun Do(act: tAction) {
    var p: int;
    if (act.kind == A_TIMEOUT) {
      send servers[act.target], eTimeout;
    } else if (act.kind == A_REQUEST) {
      Deliver(Session(act.session, act.target), eRequest, act.value);
    } else if (act.kind == A_PING) {
      Deliver(Session(act.session, act.target), ePing, act.session);
    } else if (act.kind == A_CRASH) {
      send servers[act.target], eCrash;
    } else if (act.kind == A_CUT_IN) {
      foreach (p in act.peers) {
        send links[p][act.target], eCut, true;
      }
    } else if (act.kind == A_HEAL_OUT) {
      foreach (p in act.peers) {
        send links[act.target][p], eCut, false;
      }
    } else if (act.kind == A_CUT || act.kind == A_HEAL) {
      foreach (p in act.peers) {
        send links[p][act.target], eCut, act.kind == A_CUT;
        send links[act.target][p], eCut, act.kind == A_CUT;
      }
    }
  }
}

/* Plan-building helpers. */
fun Act(plan: seq[tAction], kind: tActionKind, target: int, session: int, value: int, peers: set[int], wait: bool) : seq[tAction] {
  plan += (sizeof(plan), (kind = kind, target = target, session = session, value = value, peers = peers, wait = wait));
  return plan;
}

fun Timeout(plan: seq[tAction], s: int) : seq[tAction] {
  return Act(plan, A_TIMEOUT, s, 0, 0, default(set[int]), false);
}

fun Request(plan: seq[tAction], session: int, s: int, value: int, wait: bool) : seq[tAction] {
  return Act(plan, A_REQUEST, s, session, value, default(set[int]), wait);
}

fun Ping(plan: seq[tAction], session: int, s: int) : seq[tAction] {
  return Act(plan, A_PING, s, session, 0, default(set[int]), false);
}

fun Crash(plan: seq[tAction], s: int) : seq[tAction] {
  return Act(plan, A_CRASH, s, 0, 0, default(set[int]), false);
}

fun Cut(plan: seq[tAction], s: int, peers: set[int]) : seq[tAction] {
  return Act(plan, A_CUT, s, 0, 0, peers, false);
}

fun CutIn(plan: seq[tAction], s: int, peers: set[int]) : seq[tAction] {
  return Act(plan, A_CUT_IN, s, 0, 0, peers, false);
}

fun Heal(plan: seq[tAction], s: int, peers: set[int]) : seq[tAction] {
  return Act(plan, A_HEAL, s, 0, 0, peers, false);
}

fun HealOut(plan: seq[tAction], s: int, peers: set[int]) : seq[tAction] {
  return Act(plan, A_HEAL_OUT, s, 0, 0, peers, false);
}

fun WaitLeader(plan: seq[tAction], s: int) : seq[tAction] {
  return Act(plan, A_WAIT_LEADER, s, 0, 0, default(set[int]), true);
}

fun WaitSynced(plan: seq[tAction], s: int) : seq[tAction] {
  return Act(plan, A_WAIT_SYNCED, s, 0, 0, default(set[int]), true);
}

fun WaitCommit(plan: seq[tAction], value: int) : seq[tAction] {
  return Act(plan, A_WAIT_COMMIT, 0, 0, value, default(set[int]), true);
}

fun Servers(lo: int, hi: int) : set[int] {
  var s: set[int];
  while (lo <= hi) {
    s += (lo);
    lo = lo + 1;
  }
  return s;
}

/* Every server of lo..hi times out (starts or restarts its election). */
fun TimeoutAll(plan: seq[tAction], lo: int, hi: int) : seq[tAction] {
  while (lo <= hi) {
    plan = Timeout(plan, lo);
    lo = lo + 1;
  }
  return plan;
}
