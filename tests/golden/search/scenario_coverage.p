// pcheck-args: --search dfs --mem 64M
// P's scenarios (coverage specs): attached to every test without an
// assert, covered when a step makes one enter a cold state, never a bug (a
// scenario left in a hot state at the end is not a liveness bug); a warning
// for a scenario without a cold state.
event eReq: int;
event eResp: int;
machine Client {
  var server: Server;
  start state Init {
    entry (s: Server) { server = s; send server, eReq, 1; send server, eReq, 2; }
    on eResp do (v: int) { }
  }
}
machine Server {
  start state Serve {
    on eReq do (v: int) { }
  }
}
machine Main {
  start state S { entry { var s: Server; s = new Server(); new Client(s); } }
}
// covered: two requests are sent
scenario TwoRequests observes eReq {
  start hot state None { on eReq goto One; }
  hot state One { on eReq goto Two; }
  cold state Two { ignore eReq; }
}
// never covered: no response is ever sent
scenario GotResponse observes eResp {
  start hot state Waiting { on eResp goto Done; }
  cold state Done { }
}
scenario NoCold observes { eReq } {
  start state A { ignore eReq; }
}
module System = { Main, Server, Client };
test tcScen [main=Main]: System;
