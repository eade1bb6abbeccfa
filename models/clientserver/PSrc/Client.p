/* A client withdraws random amounts from its account until the balance is
   at most 10, then stops. On a shared account (shared = true) the client's
   balance is only the last one the bank reported: another client may have
   withdrawn since, so a withdrawal may fail; the client then takes the
   balance the bank reports. */
machine Client {
  var server: BankServer;
  var accountId: int;
  var nextReqId: int;
  var numOfWithdrawOps: int;
  var currentBalance: int;
  var shared: bool;

  start state Init {
    entry (input: tClientConfig) {
      server = input.serv;
      currentBalance = input.balance;
      accountId = input.accountId;
      shared = input.shared;
      nextReqId = input.id * 100;
      goto WithdrawMoney;
    }
  }

  state WithdrawMoney {
    entry {
      if (currentBalance <= 10) {
        goto NoMoneyToWithDraw;
      }
      send server, eWithDrawReq, (source = this, accountId = accountId,
                                  amount = WithdrawAmount(), rId = nextReqId);
      nextReqId = nextReqId + 1;
    }

    on eWithDrawResp do (resp: tWithDrawResp) {
      assert resp.balance >= 10, "Bank balance must be greater than 10!!";
      if (resp.status == WITHDRAW_SUCCESS) {
        assert resp.balance == currentBalance - (currentBalance - resp.balance),
          format("Withdraw succeeded with balance {0} but client computed {1}", resp.balance, currentBalance);
        currentBalance = resp.balance;
      } else {
        assert shared || currentBalance == resp.balance,
          format("Withdraw failed but the balance changed from {0} to {1}", currentBalance, resp.balance);
        currentBalance = resp.balance;
      }
      if (currentBalance > 10) {
        goto WithdrawMoney;
      }
    }
  }

  /* Withdraw between 1 and everything above 10, so that every request on an
     account of its own succeeds and a client stops after a few
     withdrawals. */
  fun WithdrawAmount() : int {
    return choose(currentBalance - 10) + 1;
  }

  state NoMoneyToWithDraw {
    entry {
      assert currentBalance <= 10, "Held balance must be at most 10 when the client stops";
      print format("No money to withdraw, waiting for more deposits!");
    }
  }
}
