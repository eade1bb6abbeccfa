// pcheck-args: --search random --seed 1 --schedules 20
// A spec keeps variables across events, with a map and a helper function.
event eDeposit : (acct: int, amt: int);
spec Ledger observes eDeposit {
  var bal: map[int, int];
  start state S {
    on eDeposit do (d: (acct: int, amt: int)) {
      if (!(d.acct in bal)) { bal[d.acct] = 0; }
      bal[d.acct] = bal[d.acct] + d.amt;
      assert Total() >= 0;
    }
  }
  fun Total() : int { var k: int; var t: int; foreach (k in keys(bal)) { t = t + bal[k]; } return t; }
}
machine Main { start state S { entry { announce eDeposit, (acct = 1, amt = 5); announce eDeposit, (acct = 2, amt = 6); } } }
