// One unit of the front-end benchmark; '@' becomes the copy number.
event eReq@ : tReq@;
event eResp@ : (id: int, ok: bool, balance: int);
event eTick@;
type tReq@ = (client: Client@, id: int, amount: int);
enum Mode@ { IDLE@, BUSY@, DONE@ }

fun Clamp@(x: int, lo: int, hi: int) : int {
  if (x < lo) { return lo; }
  if (x > hi) { return hi; }
  return x;
}

machine Client@ {
  var server: Server@;
  var pending: map[int, tReq@];
  var history: seq[(id: int, ok: bool)];
  var mode: Mode@;
  var next: int;
  start state Init {
    entry (s: Server@) {
      server = s;
      next = 0;
      mode = IDLE@;
      goto Send;
    }
  }
  state Send {
    entry {
      var r: tReq@;
      r = (client = this, id = next, amount = Clamp@(next * 10, 1, 100));
      pending[next] = r;
      send server, eReq@, r;
      next = next + 1;
      mode = BUSY@;
    }
    on eResp@ do (resp: (id: int, ok: bool, balance: int)) {
      var k: int;
      assert resp.id in pending, format("unexpected response {0}", resp.id);
      history += (sizeof(history), (id = resp.id, ok = resp.ok));
      pending -= resp.id;
      foreach (k in keys(pending)) {
        if (k < resp.id) { print format("older request {0} still pending", k); }
      }
      if (next < 3) { goto Send; } else { raise eTick@; }
    }
    on eTick@ goto Finished;
  }
  state Finished {
    entry { mode = DONE@; }
    ignore eResp@;
  }
}

machine Server@ {
  var balances: map[Client@, int];
  start state Serve {
    on eReq@ do (r: tReq@) {
      var bal: int;
      if (!(r.client in balances)) { balances[r.client] = 100; }
      bal = balances[r.client];
      if (bal >= r.amount && $) {
        balances[r.client] = bal - r.amount;
        send r.client, eResp@, (id = r.id, ok = true, balance = bal - r.amount);
      } else {
        send r.client, eResp@, (id = r.id, ok = false, balance = bal);
      }
    }
  }
}

spec Balance@ observes eReq@, eResp@ {
  var requested: map[int, int];
  start state Watch {
    on eReq@ do (r: tReq@) { requested[r.id] = r.amount; }
    on eResp@ do (resp: (id: int, ok: bool, balance: int)) {
      assert resp.id in requested, "response without request";
      assert resp.balance >= 0, format("negative balance {0}", resp.balance);
      requested -= resp.id;
    }
  }
}

machine Driver@ {
  start state Start {
    entry {
      var s: Server@;
      s = new Server@();
      new Client@(s);
      new Client@(s);
    }
  }
}

test tc@ [main=Driver@]: assert Balance@ in { Driver@, Client@, Server@ };
