// pcheck-args: --list-tests
// Named modules built from other modules: union, parentheses, main ... in,
// and tests asserting several specs.
event eReq; event eResp;
spec Safety observes eReq, eResp { start state S { on eReq, eResp do { } } }
spec Progress observes eReq { start cold state S { on eReq do { } } }
machine Server { start state S { } }
machine Database { start state S { } }
machine Client { start state S { } }
machine Driver { start state S { entry { new Server(); new Database(); new Client(); } } }
module Bank = { Server, Database };
module Clients = { Client };
module Everything = union Bank, Clients, { Driver };
module Wrapped = (Bank);
module WithMain = main Driver in (union Wrapped, Clients, { Driver });
test tcBank [main=Driver]: assert Safety, Progress in (union Bank, { Driver, Client });
test tcEverything [main=Driver]: assert Safety in Everything;
test tcNamed [main=Driver]: WithMain;
test tcNested [main=Driver]: assert Progress in (assert Safety in (union Bank, Clients, { Driver }));
