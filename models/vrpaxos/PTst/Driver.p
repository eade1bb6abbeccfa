/* The environment of a VR group: it creates the replicas and a link
   between every two of them, then plays a test's plan: client requests
   (each client has its own session, one connection to each replica it
   talks to, created when first used), session keep-alives, failure-detector
   timeouts, crashes, and cutting or healing links. An action may wait for
   its outcome (a request: until its op is committed); WaitView and WaitOp
   wait for a view to start or an op to commit. Nothing else is scripted:
   which message moves when is the scheduler's choice. */
enum tActionKind { A_REQUEST, A_PING, A_TIMEOUT, A_CRASH, A_CUT, A_CUT_IN, A_HEAL, A_HEAL_OUT, A_WAIT_VIEW, A_WAIT_OP }
// target: the replica the action goes to; session: the client session of
// a request or ping; op: the operation of a request (or the op or view
// waited for); peers: for A_CUT and A_HEAL, the replicas whose links with
// target (both ways) are cut or healed; for A_CUT_IN, the replicas whose
// links to target are cut; for A_HEAL_OUT, the replicas whose links from
// target are healed (target can send to them again, still not hear them).
type tAction = (kind: tActionKind, target: int, session: int, op: int, peers: set[int], wait: bool);
// viaLinks: replicas talk through links and sessions are links too;
// otherwise every message goes straight to its receiver (smaller state
// spaces).
type tVRSetup = (n: int, bug: tVRBug, viaLinks: bool, plan: seq[tAction]);

machine Driver {
  var replicas: map[int, Replica];
  var links: map[int, map[int, Link]];    // links[a][b]: from replica a to replica b
  var sessions: map[int, map[int, machine]];  // sessions[s][r]: session s's connection to replica r
  var viaLinks: bool;
  var plan: seq[tAction];
  var pc: int;
  var committedOps: set[int];
  var startedView: int;
  var waitOp: int;
  var waitView: int;

  start state Init {
    entry (s: tVRSetup) {
      var a: int;
      var b: int;
      var out: map[int, Link];
      var routes: map[int, machine];
      plan = s.plan;
      viaLinks = s.viaLinks;
      while (a < s.n) {
        replicas[a] = new Replica((id = a, n = s.n, driver = this, bug = s.bug));
        a = a + 1;
      }
      a = 0;
      while (a < s.n) {
        out = default(map[int, Link]);
        routes = default(map[int, machine]);
        b = 0;
        while (b < s.n) {
          if (a != b) {
            if (viaLinks) {
              out[b] = new Link(replicas[b]);
              routes[b] = out[b];
            } else {
              routes[b] = replicas[b];
            }
          }
          b = b + 1;
        }
        links[a] = out;
        send replicas[a], eConnect, (peers = routes, viaLinks = viaLinks);
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
        if ((act.kind == A_REQUEST && act.wait) || act.kind == A_WAIT_OP) {
          if (!(act.op in committedOps)) {
            waitOp = act.op;
            goto WaitingForOp;
          }
        }
        if (act.kind == A_WAIT_VIEW && startedView < act.op) {
          waitView = act.op;
          goto WaitingForView;
        }
      }
      goto Done;
    }
    on eOpCommitted do (op: int) { committedOps += (op); }
    on eViewStarted do (m: (view: int, primary: int)) { Started(m.view); }
  }

  state WaitingForOp {
    on eOpCommitted do (op: int) {
      committedOps += (op);
      if (op == waitOp) {
        goto Running;
      }
    }
    on eViewStarted do (m: (view: int, primary: int)) { Started(m.view); }
  }

  state WaitingForView {
    on eOpCommitted do (op: int) { committedOps += (op); }
    on eViewStarted do (m: (view: int, primary: int)) {
      Started(m.view);
      if (startedView >= waitView) {
        goto Running;
      }
    }
  }

  state Done {
    ignore eOpCommitted, eViewStarted;
  }

  fun Started(v: int) {
    if (v > startedView) {
      startedView = v;
    }
  }

  /* Session s's connection to replica r (created on first use). */
  fun Session(s: int, r: int) : machine {
    var m: map[int, machine];
    if (!(s in sessions)) {
      sessions[s] = m;
    }
    if (!(r in sessions[s])) {
      if (viaLinks) {
        sessions[s][r] = new Link(replicas[r]);
      } else {
        sessions[s][r] = replicas[r];
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
    if (act.kind == A_REQUEST) {
      Deliver(Session(act.session, act.target), eRequest, act.op);
    } else if (act.kind == A_PING) {
      Deliver(Session(act.session, act.target), ePing, act.session);
    } else if (act.kind == A_TIMEOUT) {
      send replicas[act.target], eTimeout, act.op;
    } else if (act.kind == A_CRASH) {
      send replicas[act.target], eCrash;
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
        send links[act.target][p], eCut, act.kind == A_CUT;
        send links[p][act.target], eCut, act.kind == A_CUT;
      }
    }
  }
}

/* Plan-building helpers. */
fun Act(plan: seq[tAction], kind: tActionKind, target: int, session: int, op: int, peers: set[int], wait: bool) : seq[tAction] {
  plan += (sizeof(plan), (kind = kind, target = target, session = session, op = op, peers = peers, wait = wait));
  return plan;
}

fun Request(plan: seq[tAction], session: int, r: int, op: int, wait: bool) : seq[tAction] {
  return Act(plan, A_REQUEST, r, session, op, default(set[int]), wait);
}

fun Ping(plan: seq[tAction], session: int, r: int) : seq[tAction] {
  return Act(plan, A_PING, r, session, 0, default(set[int]), false);
}

/* Replica r's failure detector suspects the primary of view v (or, in a
   view change to view v, the new primary). */
fun Timeout(plan: seq[tAction], r: int, v: int) : seq[tAction] {
  return Act(plan, A_TIMEOUT, r, 0, v, default(set[int]), false);
}

fun Crash(plan: seq[tAction], r: int) : seq[tAction] {
  return Act(plan, A_CRASH, r, 0, 0, default(set[int]), false);
}

fun Cut(plan: seq[tAction], r: int, peers: set[int]) : seq[tAction] {
  return Act(plan, A_CUT, r, 0, 0, peers, false);
}

fun CutIn(plan: seq[tAction], r: int, peers: set[int]) : seq[tAction] {
  return Act(plan, A_CUT_IN, r, 0, 0, peers, false);
}

fun Heal(plan: seq[tAction], r: int, peers: set[int]) : seq[tAction] {
  return Act(plan, A_HEAL, r, 0, 0, peers, false);
}

fun HealOut(plan: seq[tAction], r: int, peers: set[int]) : seq[tAction] {
  return Act(plan, A_HEAL_OUT, r, 0, 0, peers, false);
}

fun WaitView(plan: seq[tAction], v: int) : seq[tAction] {
  return Act(plan, A_WAIT_VIEW, 0, 0, v, default(set[int]), true);
}

fun WaitOp(plan: seq[tAction], op: int) : seq[tAction] {
  return Act(plan, A_WAIT_OP, 0, 0, op, default(set[int]), true);
}

fun Replicas(lo: int, hi: int) : set[int] {
  var s: set[int];
  while (lo <= hi) {
    s += (lo);
    lo = lo + 1;
  }
  return s;
}
