// Two tests, each running one of Server's two handlers: their coverage
// reports merged cover both (tests/coverage.sh).
event eA;
event eB;

machine Server {
  start state Serve {
    on eA do { assert true, "A"; }
    on eB goto Done;
  }
  state Done { }
}

machine SendA { start state Init { entry { send new Server(), eA; } } }
machine SendB { start state Init { entry { send new Server(), eB; } } }

test tcA [main = SendA]: { SendA, Server };
test tcB [main = SendB]: { SendB, Server };
