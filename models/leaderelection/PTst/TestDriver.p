/* Test drivers: a ring of nodes with distinct ids. AnyRing puts the largest
   id at position 0 and the others in any order (every ring up to
   rotation); the retransmission tests use the ring 3 -> 1 -> 2 -> 3 (their
   timers multiply the interleavings). Either any nonempty set of nodes
   initiates the election, or all of them do. The nodes are configured one
   by one, so a node may start before its successor is configured. */
machine Ring4 {
  start state Init {
    entry { SetUpRing((ids = AnyRing(4), allInitiate = false, retransmit = false, bug = L_NONE)); }
  }
}

machine Ring5AllInitiate {
  start state Init {
    entry { SetUpRing((ids = AnyRing(5), allInitiate = true, retransmit = false, bug = L_NONE)); }
  }
}

machine Ring3Retransmit {
  start state Init {
    entry { SetUpRing((ids = Ring312(), allInitiate = true, retransmit = true, bug = L_NONE)); }
  }
}

machine BugStaleTimeout {
  start state Init {
    entry { SetUpRing((ids = Ring312(), allInitiate = true, retransmit = true, bug = L_STALE_TIMEOUT)); }
  }
}

machine BugWakeForward {
  start state Init {
    entry { SetUpRing((ids = AnyRing(4), allInitiate = false, retransmit = false, bug = L_WAKE_FORWARD)); }
  }
}

machine BugRelayDrop {
  start state Init {
    entry { SetUpRing((ids = AnyRing(4), allInitiate = false, retransmit = false, bug = L_RELAY_DROP)); }
  }
}

machine BugLeaderTwice {
  start state Init {
    entry { SetUpRing((ids = Ring312(), allInitiate = true, retransmit = true, bug = L_LEADER_TWICE)); }
  }
}

fun AnyRing(n: int) : seq[int] {
  var ids: seq[int];
  var rest: set[int];
  var i: int;
  var x: int;
  ids += (0, n);
  i = 1;
  while (i < n) {
    rest += (i);
    i = i + 1;
  }
  while (sizeof(rest) > 0) {
    x = choose(rest);
    ids += (sizeof(ids), x);
    rest -= (x);
  }
  return ids;
}

fun Ring312() : seq[int] {
  var ids: seq[int];
  ids += (0, 3);
  ids += (1, 1);
  ids += (2, 2);
  return ids;
}

fun SetUpRing(cfg: tRingConfig) {
  var nodes: seq[Node];
  var initiators: seq[bool];
  var someInitiator: bool;
  var n: int;
  var i: int;

  n = sizeof(cfg.ids);
  announce eSpecRing, cfg.ids;
  while (i < n) {
    nodes += (i, new Node((id = cfg.ids[i], bug = cfg.bug)));
    initiators += (i, cfg.allInitiate || $);
    someInitiator = someInitiator || initiators[i];
    i = i + 1;
  }
  if (!someInitiator) {
    initiators[choose(n)] = true;
  }
  i = 0;
  while (i < n) {
    send nodes[i], eConfig, (succ = nodes[(i + 1) % n], initiator = initiators[i], retransmit = cfg.retransmit);
    i = i + 1;
  }
}
