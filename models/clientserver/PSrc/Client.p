/* A client withdraws random amounts from its account until the balance is
   at most 10, then stops. */
machine Client {
  var server: BankServer;
  var accountId: int;
  var nextReqId: int;
  var numOfWithdrawOps: int;
  var currentBalance: int;

  start state Init {
    entry (input: (serv: BankServer, accountId: int, balance: int)) {
      server = input.serv;
      currentBalance = input.balance;
      accountId = input.accountId;
      nextReqId = accountId * 100;
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
        assert currentBalance == resp.balance,
          format("Withdraw failed but the balance changed from {0} to {1}", currentBalance, resp.balance);
      }
      if (currentBalance > 10) {
        goto WithdrawMoney;
      }
    }
  }

  /* Withdraw between 1 and everything above 10, so that every request
     succeeds and a client stops after a few withdrawals. */
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
