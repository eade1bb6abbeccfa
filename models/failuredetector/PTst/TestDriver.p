/* The test: a failure detector over a few nodes, a client registered for
   notifications, and a failure injector that shuts down some nodes. */
machine Client {
  start state Init {
    entry (fd: FailureDetector) { send fd, eRegisterClient, this; }
    on eNotifyNodesDown do (nodes: set[Node]) { print format("nodes down: {0}", nodes); }
  }
}

machine FailureInjector {
  var nodes: set[Node];
  var nFailures: int;
  start state Init {
    entry (config: (nodes: set[Node], nFailures: int)) {
      nodes = config.nodes;
      nFailures = config.nFailures;
      goto Inject;
    }
  }
  state Inject {
    entry {
      var n: Node;
      if (nFailures > 0) {
        n = choose(nodes);
        announce eNodeShutDown, n;
        send n, eShutDown;
        nodes -= (n);
        nFailures = nFailures - 1;
        goto Inject;
      }
    }
  }
}

machine TestMultipleClients {
  start state Init {
    entry {
      var nodes: set[Node];
      var i: int;
      var fd: FailureDetector;
      while (i < 2) {
        nodes += (new Node());
        i = i + 1;
      }
      fd = new FailureDetector((nodes = nodes, nAttempts = 1, maxRounds = -1, bug = FD_NONE));
      new Client(fd);
      new FailureInjector((nodes = nodes, nFailures = 1));
    }
  }
}
