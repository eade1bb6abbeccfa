/* Liveness: every node that is shut down is eventually reported down.
   (A slow node may be reported down too: the detector is not accurate,
   only complete.) */
event eNodeShutDown : machine;

spec ReliableFailureDetector observes eNotifyNodesDown, eNodeShutDown {
  var nodesShutdownAndNotDetected: set[machine];
  var nodesDownDetected: set[machine];

  start state AllShutdownNodesAreDetected {
    on eNotifyNodesDown do (nodes: set[Node]) {
      var n: Node;
      foreach (n in nodes) {
        nodesShutdownAndNotDetected -= (n);
        nodesDownDetected += (n);
      }
    }
    on eNodeShutDown do (node: machine) {
      if (!(node in nodesDownDetected)) {
        nodesShutdownAndNotDetected += (node);
        goto NodesShutDownButNotDetected;
      }
    }
  }

  hot state NodesShutDownButNotDetected {
    on eNotifyNodesDown do (nodes: set[Node]) {
      var n: Node;
      foreach (n in nodes) {
        nodesShutdownAndNotDetected -= (n);
        nodesDownDetected += (n);
      }
      if (sizeof(nodesShutdownAndNotDetected) == 0) {
        goto AllShutdownNodesAreDetected;
      }
    }
    on eNodeShutDown do (node: machine) {
      if (!(node in nodesDownDetected)) {
        nodesShutdownAndNotDetected += (node);
      }
    }
  }
}
