// pcheck-args: --search random --seed 1 --schedules 20
// One test asserting two specs over a union of a module and a literal
// module; both specs watch the same events.
event eReq : int; event eResp : int;
spec Matched observes eReq, eResp {
  var open: set[int];
  start state S {
    on eReq do (id: int) { open += (id); }
    on eResp do (id: int) { assert id in open; open -= (id); }
  }
}
spec Answered observes eReq, eResp {
  start cold state Idle { on eReq goto Busy; ignore eResp; }
  hot state Busy { on eResp goto Idle; ignore eReq; }
}
machine Server {
  start state S { on eReq do (id: int) { announce eResp, id; } }
}
machine Driver {
  start state S { entry { var s: Server; s = new Server(); send s, eReq, 1; } }
}
module Servers = { Server };
test tcBoth [main=Driver]: assert Matched, Answered in (union Servers, { Driver });
