// pcheck-args: --search random --seed 1 --schedules 1 -v -tc tcAbstract
// P's module system: every machine declares an interface of its own name;
// a primitive module may bind another machine to it ({ Fake -> Server }),
// and then every `new Server(...)` of that test creates a Fake.  tcReal
// runs the real Server, tcAbstract the Fake (the log shows which).
event eReq : Client;
event eResp : int;
machine Server {
  start state Serve {
    entry (base: int) { }
    on eReq do (c: Client) { send c, eResp, 1; }
  }
}
machine Fake {
  start state Serve {
    entry (base: int) { }
    on eReq do (c: Client) { send c, eResp, 42; }
  }
}
machine Client {
  start state Ask {
    entry (s: Server) { send s, eReq, this; }
    on eResp do (v: int) { print format("answer {0}", v); }
  }
}
machine Main {
  var s: Server;
  start state Init {
    entry {
      s = new Server(7);
      new Client(s);
    }
  }
}
module Clients = { Client, Main };
module Real = { Server };
module Abstract = { Fake -> Server };
test tcReal [main=Main]: (union Clients, Real);
test tcAbstract [main=Main]: (union Clients, Abstract);
