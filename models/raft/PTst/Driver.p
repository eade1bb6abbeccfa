/* The environment of a Raft cluster: it creates the servers and the links
   between every two of them, then plays a script of actions (a test's
   plan): election timeouts, client requests, configuration changes, and
   cutting or healing links. Requests travel over the network too: each
   server has a link from the client and one from the administrator (who
   asks for configuration changes), and an administrator that gets no
   answer retries (A_ADD again). An action may wait for its outcome (a timeout:
   until that server is elected; a request: until it is committed) before
   the next one; one that does not wait runs concurrently with what
   follows. Nothing else is scripted: which message is delivered when is the
   scheduler's choice. */
enum tActionKind { A_TIMEOUT, A_REQUEST, A_ADD, A_REMOVE, A_CUT, A_CUT_IN, A_HEAL }
// target: the server the action goes to; cmd: the request's command (for
// A_ADD and A_REMOVE, an id of the change); who: the server added or
// removed; peers: for A_CUT and A_HEAL, the servers whose links with
// `target` (both ways) are cut or healed; for A_CUT_IN, the servers whose
// links to `target` are cut (target no longer hears them, they still hear
// target).
type tAction = (kind: tActionKind, target: int, cmd: int, who: int, peers: set[int], wait: bool);
// viaLinks: servers talk through links, and the client and administrator
// reach each server through its own link; otherwise every message goes
// straight to its receiver's inbox (smaller state spaces).
type tRaftSetup = (numServers: int, config: set[int], bug: tRaftBug, viaLinks: bool, plan: seq[tAction]);

machine Driver {
  var servers: map[int, Server];
  var links: map[int, map[int, Link]];   // links[a][b]: from server a to server b
  var clientLink: map[int, machine];     // from the client to each server (or the server)
  var adminLink: map[int, machine];      // from the administrator to each server (or the server)
  var viaLinks: bool;
  var plan: seq[tAction];
  var pc: int;
  var waitFor: int;                      // the server, or the command, waited for

  start state Init {
    entry (s: tRaftSetup) {
      var a: int;
      var b: int;
      var out: map[int, Link];
      var direct: map[int, machine];
      var routes: map[int, machine];
      plan = s.plan;
      viaLinks = s.viaLinks;
      a = 1;
      while (a <= s.numServers) {
        servers[a] = new Server((id = a, driver = this, config = s.config, numServers = s.numServers, bug = s.bug));
        a = a + 1;
      }
      a = 1;
      while (a <= s.numServers) {
        direct[a] = servers[a];
        a = a + 1;
      }
      a = 1;
      while (a <= s.numServers) {
        if (viaLinks) {
          out = default(map[int, Link]);
          routes = default(map[int, machine]);
          b = 1;
          while (b <= s.numServers) {
            if (a != b) {
              out[b] = new Link(servers[b]);
              routes[b] = out[b];
            }
            b = b + 1;
          }
          links[a] = out;
          send servers[a], eConnect, (peers = routes, viaLinks = true);
          clientLink[a] = new Link(servers[a]);
          adminLink[a] = new Link(servers[a]);
        } else {
          send servers[a], eConnect, (peers = direct, viaLinks = false);
          clientLink[a] = servers[a];
          adminLink[a] = servers[a];
        }
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
        if (act.wait && (act.kind == A_TIMEOUT)) {
          waitFor = act.target;
          goto WaitingForLeader;
        }
        if (act.wait && (act.kind == A_REQUEST || act.kind == A_ADD || act.kind == A_REMOVE)) {
          waitFor = act.cmd;
          goto WaitingForCommit;
        }
      }
      goto Done;
    }
    ignore eLeaderElected, eRequestDone;
  }

  state WaitingForLeader {
    on eLeaderElected do (m: (leader: int, term: int)) {
      if (m.leader == waitFor) {
        goto Running;
      }
    }
    ignore eRequestDone;
  }

  state WaitingForCommit {
    on eRequestDone do (cmd: int) {
      if (cmd == waitFor) {
        goto Running;
      }
    }
    ignore eLeaderElected;
  }

  state Done {
    ignore eLeaderElected, eRequestDone;
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
      Deliver(clientLink[act.target], eClientRequest, act.cmd);
    } else if (act.kind == A_ADD) {
      Deliver(adminLink[act.target], eChangeConfig, (cmd = act.cmd, add = true, server = act.who));
    } else if (act.kind == A_REMOVE) {
      Deliver(adminLink[act.target], eChangeConfig, (cmd = act.cmd, add = false, server = act.who));
    } else if (act.kind == A_CUT_IN) {
      foreach (p in act.peers) {
        send links[p][act.target], eCut, true;
      }
    } else {
      foreach (p in act.peers) {
        send links[act.target][p], eCut, act.kind == A_CUT;
        send links[p][act.target], eCut, act.kind == A_CUT;
      }
    }
  }
}

/* Plan-building helpers. */
fun Timeout(plan: seq[tAction], s: int, wait: bool) : seq[tAction] {
  plan += (sizeof(plan), (kind = A_TIMEOUT, target = s, cmd = 0, who = 0, peers = default(set[int]), wait = wait));
  return plan;
}

fun Request(plan: seq[tAction], s: int, cmd: int, wait: bool) : seq[tAction] {
  plan += (sizeof(plan), (kind = A_REQUEST, target = s, cmd = cmd, who = 0, peers = default(set[int]), wait = wait));
  return plan;
}

fun AddServer(plan: seq[tAction], s: int, cmd: int, who: int, wait: bool) : seq[tAction] {
  plan += (sizeof(plan), (kind = A_ADD, target = s, cmd = cmd, who = who, peers = default(set[int]), wait = wait));
  return plan;
}

fun RemoveServer(plan: seq[tAction], s: int, cmd: int, who: int, wait: bool) : seq[tAction] {
  plan += (sizeof(plan), (kind = A_REMOVE, target = s, cmd = cmd, who = who, peers = default(set[int]), wait = wait));
  return plan;
}

fun Cut(plan: seq[tAction], s: int, peers: set[int]) : seq[tAction] {
  plan += (sizeof(plan), (kind = A_CUT, target = s, cmd = 0, who = 0, peers = peers, wait = false));
  return plan;
}

fun CutIn(plan: seq[tAction], s: int, peers: set[int]) : seq[tAction] {
  plan += (sizeof(plan), (kind = A_CUT_IN, target = s, cmd = 0, who = 0, peers = peers, wait = false));
  return plan;
}

fun Heal(plan: seq[tAction], s: int, peers: set[int]) : seq[tAction] {
  plan += (sizeof(plan), (kind = A_HEAL, target = s, cmd = 0, who = 0, peers = peers, wait = false));
  return plan;
}

fun Servers(lo: int, hi: int) : set[int] {
  var s: set[int];
  while (lo <= hi) {
    s += (lo);
    lo = lo + 1;
  }
  return s;
}
