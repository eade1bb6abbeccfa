/* A failure detector: in rounds, it pings every node and waits for pongs
   until its timer fires; a node that missed too many rounds is reported
   down to every registered client. */
event ePing : (fd: FailureDetector, trial: int);
event ePong : (node: Node, trial: int);
event eNotifyNodesDown : set[Node];
event eRegisterClient : machine;

machine FailureDetector {
  var nodes: set[Node];
  var clients: set[machine];
  var attempts: int;
  var alive: set[Node];
  var respInCurrRound: set[Node];
  var timer: Timer;

  start state Init {
    entry (config: (nodes: set[Node], nAttempts: int)) {
      nodes = config.nodes;
      alive = config.nodes;
      attempts = config.nAttempts;
      timer = CreateTimer(this);
      goto SendPingsToAllNodes;
    }
    on eRegisterClient do (client: machine) { clients += (client); }
  }

  state SendPingsToAllNodes {
    entry {
      var notRespondedNodes: set[Node];
      var n: Node;
      if (sizeof(alive) == 0) {
        goto AllNodesDown;
      }
      notRespondedNodes = PotentiallyDownNodes();
      foreach (n in notRespondedNodes) {
        send n, ePing, (fd = this, trial = attempts);
      }
      StartTimer(timer);
    }

    on eRegisterClient do (client: machine) { clients += (client); }

    on ePong do (pong: (node: Node, trial: int)) {
      if (pong.node in alive) {
        respInCurrRound += (pong.node);
        if (sizeof(respInCurrRound) == sizeof(alive)) {
          CancelTimer(timer);
          goto ResetAndStartAgain;
        }
      }
    }

    on eTimeOut do {
      var nodesDown: set[Node];
      var n: Node;
      respInCurrRound = default(set[Node]);
      attempts = attempts - 1;
      if (sizeof(respInCurrRound) < sizeof(alive)) {
        if (attempts == 0) {
          nodesDown = PotentiallyDownNodes();
          foreach (n in nodesDown) {
            alive -= (n);
          }
          NotifyClients(nodesDown);
          goto ResetAndStartAgain;
        }
      }
      goto SendPingsToAllNodes;
    }
  }

  state ResetAndStartAgain {
    entry {
      respInCurrRound = default(set[Node]);
      attempts = 2;
      StartTimer(timer);
    }
    on eTimeOut goto SendPingsToAllNodes;
    ignore ePong;
    on eRegisterClient do (client: machine) { clients += (client); }
  }

  state AllNodesDown {
    ignore ePong, eTimeOut, eRegisterClient;
  }

  fun PotentiallyDownNodes() : set[Node] {
    var nodesNotResponded: set[Node];
    var n: Node;
    foreach (n in alive) {
      if (!(n in respInCurrRound)) {
        nodesNotResponded += (n);
      }
    }
    return nodesNotResponded;
  }

  fun NotifyClients(nodesDown: set[Node]) {
    var c: machine;
    announce eNotifyNodesDown, nodesDown;
    foreach (c in clients) {
      send c, eNotifyNodesDown, nodesDown;
    }
  }
}
