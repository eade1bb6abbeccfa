module Client = { Client };
module Bank = { BankServer, Database };

test tcSingleClient [main=TestWithSingleClient]:
  assert BankBalanceIsAlwaysCorrect, GuaranteedWithDrawProgress in
  (union Client, Bank, { TestWithSingleClient });

test tcMultipleClients [main=TestWithMultipleClients]:
  assert BankBalanceIsAlwaysCorrect, GuaranteedWithDrawProgress in
  (union Client, Bank, { TestWithMultipleClients });

/* A pipelined server: two clients on accounts of their own, or on one
   shared account. */
test tcPipelined [main=TestPipelined]:
  assert BankBalanceIsAlwaysCorrect, GuaranteedWithDrawProgress in
  (union Client, Bank, { TestPipelined });

test tcSharedAccount [main=TestSharedAccount]:
  assert BankBalanceIsAlwaysCorrect, GuaranteedWithDrawProgress in
  (union Client, Bank, { TestSharedAccount });

/* Seeded bugs: each the configuration of tcMultipleClients, tcPipelined or
   tcSharedAccount with one deviation (`// BUG <Name>:` in PSrc/Server.p). */
test tcBugNoDefer [main=BugNoDefer]:
  assert BankBalanceIsAlwaysCorrect, GuaranteedWithDrawProgress in
  (union Client, Bank, { BugNoDefer });

test tcBugLostUpdate [main=BugLostUpdate]:
  assert BankBalanceIsAlwaysCorrect, GuaranteedWithDrawProgress in
  (union Client, Bank, { BugLostUpdate });

test tcBugLostWakeup [main=BugLostWakeup]:
  assert BankBalanceIsAlwaysCorrect, GuaranteedWithDrawProgress in
  (union Client, Bank, { BugLostWakeup });

test tcBugLockLeak [main=BugLockLeak]:
  assert BankBalanceIsAlwaysCorrect, GuaranteedWithDrawProgress in
  (union Client, Bank, { BugLockLeak });

test tcBugReplyOrder [main=BugReplyOrder]:
  assert BankBalanceIsAlwaysCorrect, GuaranteedWithDrawProgress in
  (union Client, Bank, { BugReplyOrder });
