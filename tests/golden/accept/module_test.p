// pcheck-args: --list-tests
// Named modules, union and a test asserting specs.
event e;
spec Safe observes e { start state S { on e do { } } }
machine Server { start state S { } }
machine Client { start state S { } }
machine Driver { start state S { entry { new Server(); new Client(); } } }
module Servers = { Server };
module Clients = { Client };
test tcAll [main=Driver]: assert Safe in (union Servers, Clients, { Driver });
test tcPlain [main=Driver]: union Servers, Clients, { Driver };
