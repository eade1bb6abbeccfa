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
  var maxRounds: int;    // -1: monitor forever
  var rounds: int;       // successful rounds so far (counted only if maxRounds >= 0)
  var pongsInRound: int; // BUG CountPongs only
  var bug: tFDBug;

  start state Init {
    entry (config: tFDConfig) {
      nodes = config.nodes;
      alive = config.nodes;
      attempts = config.nAttempts;
      maxRounds = config.maxRounds;
      bug = config.bug;
      timer = CreateTimer(this, bug);
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
        // BUG CountPongs: the round counts answers, not nodes: a node that
        // answers both the first ping and the retry of a round counts twice,
        // standing in for a node that has crashed.
        if (bug == FD_COUNT_PONGS) {
          pongsInRound = pongsInRound + 1;
        }
        if (sizeof(respInCurrRound) == sizeof(alive)
            || (bug == FD_COUNT_PONGS && pongsInRound >= sizeof(alive))) {
          CancelTimer(timer);
          if (maxRounds >= 0) {
            rounds = rounds + 1;
          }
          goto ResetAndStartAgain;
        }
      }
    }

    on eTimeOut do {
      var nodesDown: set[Node];
      var n: Node;
      respInCurrRound = default(set[Node]);
      pongsInRound = 0;
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
      // BUG EarlyStop: the retry is counted against the monitoring budget
      // as if it were a round: the detector may stop in the middle of a
      // failed round, before reporting.
      if (bug == FD_EARLY_STOP && maxRounds >= 0) {
        rounds = rounds + 1;
        if (rounds >= maxRounds) {
          goto Done;
        }
      }
      goto SendPingsToAllNodes;
    }
  }

  state ResetAndStartAgain {
    entry {
      respInCurrRound = default(set[Node]);
      pongsInRound = 0;
      attempts = 2;
      if (maxRounds >= 0 && rounds >= maxRounds) {
        goto Done;
      }
      StartTimer(timer);
    }
    on eTimeOut goto SendPingsToAllNodes;
    ignore ePong;
    on eRegisterClient do (client: machine) { clients += (client); }
  }

  state AllNodesDown {
    ignore ePong, eTimeOut, eRegisterClient;
  }

  // The monitoring period is over (maxRounds successful rounds). A pong of
  // a retried ping may still come in, and so may a timeout that the last
  // round's cancel could not stop.
  state Done {
    entry {
      // BUG LatePong: the stop state is written as if the last round's
      // answers were the last pongs: a late one is not handled.
      if (bug == FD_LATE_PONG) {
        goto DoneNoPongs;
      }
    }
    ignore ePong, eTimeOut, eRegisterClient;
  }

  state DoneNoPongs {
    ignore eTimeOut, eRegisterClient;
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
