/* The bank server: serves withdrawals, reading and updating balances through
   the database. A withdrawal must leave at least 10.
   - Blocking (the original design, pipelined = false): one withdrawal at a
     time; the handler blocks in `receive` until the database answers the
     read, every other event waits in the inbox meanwhile.
   - Pipelined: a withdrawal's read goes out and the server takes the next
     request at once. The database answers reads in the order they were sent
     (one FIFO channel), so a reply belongs to the oldest outstanding read.
     Read, check and update of one account must not overlap: a request on an
     account that is busy waits in `waiting` until that account's
     withdrawal is done. */
machine BankServer {
  var database: Database;
  var pipelined: bool;
  var bug: tBankBug;
  var current: tWithDrawReq;          // BUG NoDefer only: the request whose read is out
  var reading: seq[tWithDrawReq];     // pipelined: requests whose read is out, oldest first
  var busy: set[int];                 // pipelined: accounts with a withdrawal in progress
  var waiting: seq[tWithDrawReq];     // pipelined: requests on a busy account, in arrival order

  start state Init {
    entry (cfg: tServerConfig) {
      pipelined = cfg.pipelined;
      bug = cfg.bug;
      database = new Database((server = this, initialBalance = cfg.initialBalance));
      goto WaitForWithdrawRequests;
    }
  }

  state WaitForWithdrawRequests {
    on eWithDrawReq do (wReq: tWithDrawReq) {
      var currentBalance: int;
      var response: tWithDrawResp;

      if (pipelined) {
        StartWithdraw(wReq);
      } else if (bug == BANK_NO_DEFER) {
        // BUG NoDefer: the blocking read rewritten as a wait state (so that
        // the server "stays responsive"), but the state does not defer new
        // requests: another client's request that arrives while the read
        // is out is an unhandled event.
        current = wReq;
        send database, eReadQuery, (accountId = wReq.accountId,);
        goto WaitForBalance;
      } else {
        currentBalance = ReadBankBalance(database, wReq.accountId);
        if (currentBalance - wReq.amount >= 10) {
          UpdateBankBalance(database, wReq.accountId, currentBalance - wReq.amount);
          response = (status = WITHDRAW_SUCCESS, accountId = wReq.accountId,
                      balance = currentBalance - wReq.amount, rId = wReq.rId);
        } else {
          response = (status = WITHDRAW_ERROR, accountId = wReq.accountId,
                      balance = currentBalance, rId = wReq.rId);
        }
        send wReq.source, eWithDrawResp, response;
      }
    }

    /* Pipelined only: the blocking server consumes every reply in its
       `receive`. */
    on eReadQueryResp do (resp: (accountId: int, balance: int)) {
      FinishWithdraw(resp.balance);
    }
  }

  /* Reached only with BUG NoDefer. The correct version of this state would
     say `defer eWithDrawReq;`. */
  state WaitForBalance {
    on eReadQueryResp goto WaitForWithdrawRequests with (resp: (accountId: int, balance: int)) {
      Withdraw(current, resp.balance);
    }
  }

  /* Pipelined: send the read of a request, unless its account is busy. */
  fun StartWithdraw(wReq: tWithDrawReq) {
    if (wReq.accountId in busy) {
      waiting += (sizeof(waiting), wReq);
    } else {
      busy += (wReq.accountId);
      SendRead(wReq);
    }
  }

  fun SendRead(wReq: tWithDrawReq) {
    reading += (sizeof(reading), wReq);
    send database, eReadQuery, (accountId = wReq.accountId,);
  }

  /* Pipelined: a read reply came back; it answers the oldest read out.
     Then the account goes to the first request parked on it (it stays
     busy), or is released. */
  fun FinishWithdraw(balance: int) {
    var i: int;
    var wReq: tWithDrawReq;
    var next: tWithDrawReq;
    var handedOver: bool;
    var done: bool;

    if (bug == BANK_REPLY_ORDER) {
      // BUG ReplyOrder: the outstanding reads are kept as a stack: a reply
      // is matched with the newest read, not the oldest. With two reads out
      // a client is answered with the balance of another account.
      i = sizeof(reading) - 1;
    }
    wReq = reading[i];
    reading -= (i);
    done = Withdraw(wReq, balance);

    if (bug == BANK_LOCK_LEAK && !done) {
      // BUG LockLeak: a refused withdrawal takes an early exit ("nothing
      // changed, nothing to clean up") that leaves its account busy: every
      // later request on the account is parked and never answered.
      return;
    }
    if (bug == BANK_LOST_WAKEUP) {
      // BUG LostWakeup: the account is released without a look at the
      // requests parked on it: a withdrawal that found its account busy is
      // never answered (later requests on the account run, it stays in
      // `waiting`).
      busy -= (wReq.accountId);
      return;
    }
    i = 0;
    while (i < sizeof(waiting) && !handedOver) {
      if (waiting[i].accountId == wReq.accountId) {
        next = waiting[i];
        waiting -= (i);
        SendRead(next);
        handedOver = true;
      }
      i = i + 1;
    }
    if (!handedOver) {
      busy -= (wReq.accountId);
    } else if (bug == BANK_LOST_UPDATE) {
      // BUG LostUpdate: "this withdrawal is done, release its account" --
      // although the account was just handed over to the next request. A
      // third request on the account then runs alongside it: both check
      // the same old balance, the later update overwrites the earlier.
      busy -= (wReq.accountId);
    }
  }

  /* Check a withdrawal against the balance read, update, answer; true if
     it succeeded. */
  fun Withdraw(wReq: tWithDrawReq, currentBalance: int) : bool {
    var response: tWithDrawResp;
    var ok: bool;
    ok = currentBalance - wReq.amount >= 10;
    if (ok) {
      UpdateBankBalance(database, wReq.accountId, currentBalance - wReq.amount);
      response = (status = WITHDRAW_SUCCESS, accountId = wReq.accountId,
                  balance = currentBalance - wReq.amount, rId = wReq.rId);
    } else {
      response = (status = WITHDRAW_ERROR, accountId = wReq.accountId,
                  balance = currentBalance, rId = wReq.rId);
    }
    send wReq.source, eWithDrawResp, response;
    return ok;
  }
}

/* The database: a map from account ids to balances. It answers reads in
   the order they arrive. */
machine Database {
  var server: BankServer;
  var balance: map[int, int];

  start state Init {
    entry (input: (server: BankServer, initialBalance: map[int, int])) {
      server = input.server;
      balance = input.initialBalance;
    }
    on eUpdateQuery do (query: (accountId: int, balance: int)) {
      assert query.accountId in balance, "Invalid accountId received in the update query!";
      balance[query.accountId] = query.balance;
    }
    on eReadQuery do (query: (accountId: int)) {
      assert query.accountId in balance, "Invalid accountId received in the read query!";
      send server, eReadQueryResp, (accountId = query.accountId, balance = balance[query.accountId]);
    }
  }
}

/* Blocking read of a balance: send the query and wait for its answer. */
fun ReadBankBalance(database: Database, accountId: int) : int {
  var currentBalance: int;
  send database, eReadQuery, (accountId = accountId,);
  receive {
    case eReadQueryResp: (response: (accountId: int, balance: int)) {
      currentBalance = response.balance;
    }
  }
  return currentBalance;
}

fun UpdateBankBalance(database: Database, accId: int, bal: int) {
  send database, eUpdateQuery, (accountId = accId, balance = bal);
}
