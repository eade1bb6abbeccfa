/* A client issues its updates to the head one at a time, then a query to
   the tail. When the master reports a new head or tail, it resends the
   request it is waiting for (the old head or tail may have crashed with
   it); the head ignores a retry of an update it already has. */
machine Client {
  var id: int;
  var nUpdates: int;
  var query: bool;                 // query the tail after the updates
  var head: Server;
  var tail: Server;
  var done: int;                   // updates acknowledged so far
  var pending: tUpdate;

  start state Init {
    entry (cfg: (id: int, nUpdates: int, query: bool)) {
      id = cfg.id;
      nUpdates = cfg.nUpdates;
      query = cfg.query;
      announce eRole, (m = this, role = ROLE_CLIENT);
    }
    on eStart goto Updating with (c: (head: Server, tail: Server)) {
      head = c.head;
      tail = c.tail;
    }
  }

  state Updating {
    entry {
      if (done == nUpdates) {
        if (query) { goto Querying; }
        goto Done;
      }
      pending = (client = this, op = id * 10 + done + 1, val = id * 10 + done + 1);
      send head, eUpdate, pending;
    }
    on eUpdateAck do (a: (op: int, sn: int)) {
      if (a.op != pending.op) { return; }   // a duplicate from a new tail
      done = done + 1;
      goto Updating;
    }
    on eChainChanged do (c: (head: Server, tail: Server)) {
      head = c.head;
      tail = c.tail;
      send head, eUpdate, pending;
    }
  }

  state Querying {
    entry {
      send tail, eQuery, (client = this, op = id * 10);
    }
    on eQueryResp goto Done;
    on eChainChanged do (c: (head: Server, tail: Server)) {
      head = c.head;
      tail = c.tail;
      send tail, eQuery, (client = this, op = id * 10);
    }
    ignore eUpdateAck;
  }

  state Done {
    ignore eUpdateAck, eQueryResp, eChainChanged;
  }
}
