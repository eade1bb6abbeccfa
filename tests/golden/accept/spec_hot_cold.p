// pcheck-args: --search random --seed 1 --schedules 20
// A spec with cold and hot states that ends cold.
event eReq; event eResp;
spec Progress observes eReq, eResp {
  start cold state Done { on eReq goto Pending; ignore eResp; }
  hot state Pending { on eResp goto Done; ignore eReq; }
}
machine Main {
  start state S {
    entry { announce eReq; announce eResp; }
  }
}
