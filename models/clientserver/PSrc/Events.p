/* Events and types of the bank: clients withdraw from a bank server, which
   keeps balances in a database machine. */
type tWithDrawReq = (source: Client, accountId: int, amount: int, rId: int);
type tWithDrawResp = (status: tWithDrawRespStatus, accountId: int, balance: int, rId: int);
enum tWithDrawRespStatus { WITHDRAW_SUCCESS, WITHDRAW_ERROR }

/* The seeded bugs; BANK_NONE is the correct protocol. */
enum tBankBug { BANK_NONE, BANK_NO_DEFER, BANK_LOST_UPDATE, BANK_LOST_WAKEUP, BANK_LOCK_LEAK, BANK_REPLY_ORDER }

/* A test's system: numClients clients, each on its own account or all on
   one shared account; a server that blocks on each database read
   (pipelined = false) or keeps several reads out at once. */
type tBankConfig = (numClients: int, sharedAccount: bool, pipelined: bool, bug: tBankBug);
type tServerConfig = (initialBalance: map[int, int], pipelined: bool, bug: tBankBug);
type tClientConfig = (serv: BankServer, id: int, accountId: int, balance: int, shared: bool);

event eWithDrawReq : tWithDrawReq;
event eWithDrawResp : tWithDrawResp;
event eUpdateQuery : (accountId: int, balance: int);
event eReadQuery : (accountId: int);
event eReadQueryResp : (accountId: int, balance: int);
event eSpec_BankBalanceIsAlwaysCorrect_Init : map[int, int];
