/* Test drivers: one client, or several clients, against one bank. */
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

fun SetupClientServerSystem(numClients: int) {
  var i: int;
  var server: BankServer;
  var accountIds: seq[int];
  var initAccBalance: map[int, int];

  while (i < numClients) {
    accountIds += (i, i + 1);
    i = i + 1;
  }
  initAccBalance = CreateRandomInitialAccounts(accountIds);
  announce eSpec_BankBalanceIsAlwaysCorrect_Init, initAccBalance;
  server = new BankServer(initAccBalance);

  i = 0;
  while (i < sizeof(accountIds)) {
    new Client((serv = server, accountId = accountIds[i], balance = initAccBalance[accountIds[i]]));
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
