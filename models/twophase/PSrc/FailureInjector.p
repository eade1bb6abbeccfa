/* Failure injection: halts some of the given machines at any time. */
event eShutDown : machine;
event eDelayNodeFailure;

machine FailureInjector {
  var nFailures: int;
  var nodes: set[machine];

  start state Init {
    entry (config: (nodes: set[machine], nFailures: int)) {
      nFailures = config.nFailures;
      nodes = config.nodes;
      assert nFailures < sizeof(nodes), "cannot fail every node";
      goto FailOneNode;
    }
  }

  state FailOneNode {
    entry {
      var fail: machine;
      if (nFailures == 0) {
        raise halt;
      }
      if ($) {
        fail = choose(nodes);
        send fail, eShutDown, fail;
        nodes -= (fail);
        nFailures = nFailures - 1;
      } else {
        send this, eDelayNodeFailure;
      }
    }
    on eDelayNodeFailure goto FailOneNode;
  }
}
