// expect: test module is not closed: 'Driver' creates 'Worker', which is not in the module
machine Worker { start state S { } }
machine Driver { start state S { entry { new Worker(); } } }
test tc [main=Driver]: { Driver };
