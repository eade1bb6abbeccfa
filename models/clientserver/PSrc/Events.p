/* Events and types of the bank: clients withdraw from a bank server, which
   keeps balances in a database machine. */
type tWithDrawReq = (source: Client, accountId: int, amount: int, rId: int);
type tWithDrawResp = (status: tWithDrawRespStatus, accountId: int, balance: int, rId: int);
enum tWithDrawRespStatus { WITHDRAW_SUCCESS, WITHDRAW_ERROR }

event eWithDrawReq : tWithDrawReq;
event eWithDrawResp : tWithDrawResp;
event eUpdateQuery : (accountId: int, balance: int);
event eReadQuery : (accountId: int);
event eReadQueryResp : (accountId: int, balance: int);
event eSpec_BankBalanceIsAlwaysCorrect_Init : map[int, int];
