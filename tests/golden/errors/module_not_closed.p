// P: a test's module must implement every interface its machines create.
machine Worker { start state S { } }
machine Driver { start state S { entry { new Worker(); } } }
test tc [main=Driver]: { Driver };
