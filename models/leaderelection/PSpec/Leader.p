/* Safety: at most one node is elected, and it is the node with the largest
   id; every node learns that leader. */
spec OneLeader observes eSpecRing, eSpecElected, eSpecLearned {
  var maxId: int;
  var elected: int;

  start state Init {
    on eSpecRing goto Watching with (ids: seq[int]) {
      maxId = MaxOf(ids);
      elected = -1;
    }
  }

  state Watching {
    on eSpecElected do (id: int) {
      assert elected == -1,
        format("node {0} elected itself, but node {1} was already elected", id, elected);
      assert id == maxId,
        format("node {0} elected itself, but the largest id is {1}", id, maxId);
      elected = id;
    }
    on eSpecLearned do (l: (node: int, leader: int)) {
      assert l.leader == maxId,
        format("node {0} learned leader {1}, but the largest id is {2}", l.node, l.leader, maxId);
    }
  }
}

/* Liveness: a leader is eventually elected and every node learns it. */
spec LeaderKnown observes eSpecRing, eSpecLearned {
  var numNodes: int;
  var learned: set[int];

  start state Init {
    on eSpecRing goto Electing with (ids: seq[int]) {
      numNodes = sizeof(ids);
    }
  }

  hot state Electing {
    on eSpecLearned do (l: (node: int, leader: int)) {
      learned += (l.node);
      if (sizeof(learned) == numNodes) {
        goto Known;
      }
    }
  }

  cold state Known {
    ignore eSpecLearned;
  }
}

fun MaxOf(xs: seq[int]) : int {
  var m: int;
  var x: int;
  m = xs[0];
  foreach (x in xs) {
    if (x > m) {
      m = x;
    }
  }
  return m;
}
