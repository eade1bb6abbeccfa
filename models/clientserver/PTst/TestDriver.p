/* Test drivers: one client, or several clients, against one bank; the
   clients on accounts of their own or on one shared account; a blocking or
   a pipelined server; the correct protocol or one seeded bug. */
machine TestWithSingleClient {
  start state Init {
    entry {
      SetupClientServerSystem(1);
    }
  }
}

machine TestWithMultipleClients {
  start state Init {
    entry {
      SetupClientServerSystem(2);
    }
  }
}

machine TestPipelined {
  start state Init {
    entry { SetupBank((numClients = 2, sharedAccount = false, pipelined = true, bug = BANK_NONE)); }
  }
}

machine TestSharedAccount {
  start state Init {
    entry { SetupBank((numClients = 2, sharedAccount = true, pipelined = true, bug = BANK_NONE)); }
  }
}

machine BugNoDefer {
  start state Init {
    entry { SetupBank((numClients = 2, sharedAccount = false, pipelined = false, bug = BANK_NO_DEFER)); }
  }
}

machine BugLostUpdate {
  start state Init {
    entry { SetupBank((numClients = 2, sharedAccount = true, pipelined = true, bug = BANK_LOST_UPDATE)); }
  }
}

machine BugLostWakeup {
  start state Init {
    entry { SetupBank((numClients = 2, sharedAccount = true, pipelined = true, bug = BANK_LOST_WAKEUP)); }
  }
}

machine BugLockLeak {
  start state Init {
    entry { SetupBank((numClients = 2, sharedAccount = true, pipelined = true, bug = BANK_LOCK_LEAK)); }
  }
}

machine BugReplyOrder {
  start state Init {
    entry { SetupBank((numClients = 2, sharedAccount = false, pipelined = true, bug = BANK_REPLY_ORDER)); }
  }
}

/* The original tests: a blocking server, every client on its own account. */
fun SetupClientServerSystem(numClients: int) {
  SetupBank((numClients = numClients, sharedAccount = false, pipelined = false, bug = BANK_NONE));
}

fun SetupBank(cfg: tBankConfig) {
  var i: int;
  var server: BankServer;
  var accountIds: seq[int];
  var initAccBalance: map[int, int];

  if (cfg.sharedAccount) {
    accountIds += (0, 1);
  } else {
    while (i < cfg.numClients) {
      accountIds += (i, i + 1);
      i = i + 1;
    }
  }
  initAccBalance = CreateRandomInitialAccounts(accountIds);
  announce eSpec_BankBalanceIsAlwaysCorrect_Init, initAccBalance;
  server = new BankServer((initialBalance = initAccBalance, pipelined = cfg.pipelined, bug = cfg.bug));

  // client i + 1 uses account i + 1, or account 1 when it is shared
  i = 0;
  while (i < cfg.numClients) {
    new Client((serv = server, id = i + 1, accountId = accountIds[i % sizeof(accountIds)],
                balance = initAccBalance[accountIds[i % sizeof(accountIds)]], shared = cfg.sharedAccount));
    i = i + 1;
  }
}

fun CreateRandomInitialAccounts(accountIds: seq[int]) : map[int, int] {
  var i: int;
  var bankBalance: map[int, int];
  while (i < sizeof(accountIds)) {
    bankBalance[accountIds[i]] = choose(3) + 11;   // between 11 and 13
    i = i + 1;
  }
  return bankBalance;
}
