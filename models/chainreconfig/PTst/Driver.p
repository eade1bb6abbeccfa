/* The environment of the chain: it creates the servers (1..n, the head
   first), the links between every two of them and from the client to each,
   and the master; then it plays a script of actions (a test's plan) as the
   client and the failure detector: updates (sent to the head), queries
   (sent to the tail), crashes (the server halts and the master is told),
   and suspicions (the master is told of a failure that did not happen: the
   server is only slow). An update or query may wait for its answer, a
   failure for the master to have relinked the chain. Nothing else is
   scripted: which message is delivered when is the scheduler's choice. */
enum tActionKind { A_UPDATE, A_QUERY, A_CRASH, A_SUSPECT }
type tAction = (kind: tActionKind, arg: int, wait: bool);
// viaLinks: servers talk through links, and the client reaches each server
// through its own link; otherwise every message goes straight to its
// receiver's inbox (smaller state spaces).
type tChainSetup = (numServers: int, bug: tCrBug, viaLinks: bool, plan: seq[tAction]);

machine Driver {
  var servers: map[int, Server];
  var clientLink: map[int, machine];   // the link from the client to each server (or the server)
  var viaLinks: bool;
  var master: Master;
  var head: int;
  var tail: int;
  var plan: seq[tAction];
  var pc: int;
  var waiting: tAction;

  start state Init {
    entry (s: tChainSetup) {
      var a: int;
      var b: int;
      var out: map[int, machine];
      var chain: seq[int];
      plan = s.plan;
      viaLinks = s.viaLinks;
      master = new Master((servers = default(map[int, Server]), chain = default(seq[int]), client = this));
      a = 1;
      while (a <= s.numServers) {
        servers[a] = new Server((id = a, bug = s.bug, master = master, client = this,
                                 pred = a - 1, succ = Succ(a, s.numServers)));
        chain += (sizeof(chain), a);
        a = a + 1;
      }
      a = 1;
      while (a <= s.numServers) {
        out = default(map[int, machine]);
        b = 1;
        while (b <= s.numServers) {
          if (a != b && viaLinks) {
            out[b] = new Link(servers[b]);
          } else if (a != b) {
            out[b] = servers[b];
          }
          b = b + 1;
        }
        send servers[a], eConnect, (peers = out, viaLinks = viaLinks);
        if (viaLinks) {
          clientLink[a] = new Link(servers[a]);
        } else {
          clientLink[a] = servers[a];
        }
        a = a + 1;
      }
      send master, eSetUp, (servers = servers, chain = chain);
      head = 1;
      tail = s.numServers;
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
        if (act.wait) {
          waiting = act;
          goto Waiting;
        }
      }
      goto Done;
    }
    on eUpdateAck do (m: (op: int, sn: int)) { Acked(m.sn); }
    on eQueryResp do (m: (qid: int, lastSn: int)) { Queried(m.lastSn); }
    on eChainChanged do (m: (head: int, tail: int)) { NewChain(m.head, m.tail); }
  }

  state Waiting {
    on eUpdateAck do (m: (op: int, sn: int)) {
      Acked(m.sn);
      if (waiting.kind == A_UPDATE && m.op == waiting.arg) {
        goto Running;
      }
    }
    on eQueryResp do (m: (qid: int, lastSn: int)) {
      Queried(m.lastSn);
      if (waiting.kind == A_QUERY && m.qid == waiting.arg) {
        goto Running;
      }
    }
    on eChainChanged do (m: (head: int, tail: int)) {
      NewChain(m.head, m.tail);
      if (waiting.kind == A_CRASH || waiting.kind == A_SUSPECT) {
        goto Running;
      }
    }
  }

  state Done {
    on eUpdateAck do (m: (op: int, sn: int)) { Acked(m.sn); }
    on eQueryResp do (m: (qid: int, lastSn: int)) { Queried(m.lastSn); }
    on eChainChanged do (m: (head: int, tail: int)) { NewChain(m.head, m.tail); }
  }

  fun Acked(sn: int) {
    announce eSpecAcked, sn;
  }

  fun Queried(lastSn: int) {
    announce eSpecQueried, lastSn;
  }

  fun NewChain(h: int, t: int) {
    head = h;
    tail = t;
  }

  fun Deliver(dst: machine, e: event, payload: any) {
    if (viaLinks) {
      send dst, ePacket, (ev = e, payload = payload);
    } else {
      send dst, e, payload;
    }
  }

  fun Do(act: tAction) {
    if (act.kind == A_UPDATE) {
      Deliver(clientLink[head], eClientUpdate, (op = act.arg, val = act.arg));
    } else if (act.kind == A_QUERY) {
      Deliver(clientLink[tail], eQuery, act.arg);
    } else if (act.kind == A_CRASH) {
      send servers[act.arg], eCrash;
      send master, eServerFailed, act.arg;
    } else {
      send master, eServerFailed, act.arg;
    }
  }
}

event eSetUp : (servers: map[int, Server], chain: seq[int]);

fun Succ(a: int, n: int) : int {
  if (a == n) {
    return 0;
  }
  return a + 1;
}

/* Plan-building helpers. */
fun Update(plan: seq[tAction], op: int, wait: bool) : seq[tAction] {
  plan += (sizeof(plan), (kind = A_UPDATE, arg = op, wait = wait));
  return plan;
}

fun Query(plan: seq[tAction], qid: int) : seq[tAction] {
  plan += (sizeof(plan), (kind = A_QUERY, arg = qid, wait = true));
  return plan;
}

fun Crash(plan: seq[tAction], s: int) : seq[tAction] {
  plan += (sizeof(plan), (kind = A_CRASH, arg = s, wait = true));
  return plan;
}

fun Suspect(plan: seq[tAction], s: int) : seq[tAction] {
  plan += (sizeof(plan), (kind = A_SUSPECT, arg = s, wait = true));
  return plan;
}
