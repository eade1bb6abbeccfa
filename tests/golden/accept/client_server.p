// pcheck-args: --search random --seed 1 --schedules 20
// A small client/server exchange with several machines.
event eReq : (client: Client, n: int);
event eResp : int;
machine Server {
  start state S { on eReq do (r: (client: Client, n: int)) { send r.client, eResp, r.n * 2; } }
}
machine Client {
  var server: Server;
  start state Init {
    entry (s: Server) { server = s; send server, eReq, (client = this, n = 21); }
    on eResp do (x: int) { assert x == 42; }
  }
}
machine Main {
  start state S { entry { var s: Server; s = new Server(); new Client(s); new Client(s); } }
}
