/* Test drivers: a coordinator, two participants each with a chain of two
   storage servers, clients, and a fault injector that may crash storage
   servers (at most one per chain). */
type tTMConfig = (nClients: int, nTx: int, mayRefuse: bool, nFailures: int, failable: set[int], headCrashAt: int, bug: tBug);

fun SetUpTxManager(cfg: tTMConfig) {
  var coordinator: Coordinator;
  var participants: seq[Participant];
  var chains: seq[seq[StorageServer]];
  var chain: seq[StorageServer];
  var failable: map[StorageServer, Participant];
  var tail: StorageServer;
  var i: int;
  while (i < 2) {
    tail = new StorageServer((succ = default(StorageServer), balance = 10, crashAt = -1, bug = cfg.bug));
    chain = default(seq[StorageServer]);
    chain += (0, new StorageServer((succ = tail, balance = 10, crashAt = HeadCrash(i, cfg.headCrashAt), bug = cfg.bug)));
    chain += (1, tail);
    chains += (i, chain);
    participants += (i, new Participant((chain = chain, mayRefuse = cfg.mayRefuse, bug = cfg.bug)));
    i = i + 1;
  }
  announce eSpecChains, (participants = participants, chains = chains);
  coordinator = new Coordinator((participants = participants, bug = cfg.bug));
  // storage server k is server k % 2 (0: head, 1: tail) of chain k / 2
  foreach (i in cfg.failable) {
    failable[chains[i / 2][i % 2]] = participants[i / 2];
  }
  i = 0;
  while (i < cfg.nClients) {
    new Client((id = i + 1, n = cfg.nTx, coordinator = coordinator));
    i = i + 1;
  }
  new FaultInjector((servers = failable, nFailures = cfg.nFailures));
}

// the failure point (crash when the write of transaction txid arrives) is on
// the head of the first participant's chain
fun HeadCrash(chain: int, txid: int) : int {
  if (chain == 0) { return txid; }
  return -1;
}

fun Servers(a: int, b: int) : set[int] {
  var s: set[int];
  s += (a);
  s += (b);
  return s;
}

machine OneTx { start state Init { entry {
  SetUpTxManager((nClients = 1, nTx = 1, mayRefuse = true, nFailures = 0, failable = default(set[int]), headCrashAt = -1, bug = NONE)); } } }
machine TwoTx { start state Init { entry {
  SetUpTxManager((nClients = 1, nTx = 2, mayRefuse = true, nFailures = 0, failable = default(set[int]), headCrashAt = -1, bug = NONE)); } } }
machine OneTxHeadFailure { start state Init { entry {
  SetUpTxManager((nClients = 1, nTx = 1, mayRefuse = false, nFailures = 1, failable = Servers(0, 0), headCrashAt = -1, bug = NONE)); } } }
machine OneTxTailFailure { start state Init { entry {
  SetUpTxManager((nClients = 1, nTx = 1, mayRefuse = false, nFailures = 1, failable = Servers(1, 1), headCrashAt = -1, bug = NONE)); } } }
machine TwoTxHeadCrash { start state Init { entry {
  SetUpTxManager((nClients = 1, nTx = 2, mayRefuse = false, nFailures = 0, failable = default(set[int]),
                  headCrashAt = 11, bug = NONE)); } } }

// Bug variants.
machine BugEarlyAbort { start state Init { entry {
  SetUpTxManager((nClients = 1, nTx = 1, mayRefuse = true, nFailures = 0, failable = default(set[int]), headCrashAt = -1, bug = EARLYABORT)); } } }
machine BugHeadAck { start state Init { entry {
  SetUpTxManager((nClients = 1, nTx = 1, mayRefuse = false, nFailures = 0, failable = default(set[int]), headCrashAt = -1, bug = HEADACK)); } } }
machine BugTailCrash { start state Init { entry {
  SetUpTxManager((nClients = 1, nTx = 1, mayRefuse = false, nFailures = 1, failable = Servers(1, 1), headCrashAt = -1, bug = TAILCRASH)); } } }
machine BugNoDedup { start state Init { entry {
  SetUpTxManager((nClients = 1, nTx = 1, mayRefuse = false, nFailures = 1, failable = Servers(0, 0), headCrashAt = -1, bug = NODEDUP)); } } }
machine BugAnyAck { start state Init { entry {
  SetUpTxManager((nClients = 1, nTx = 2, mayRefuse = false, nFailures = 0, failable = default(set[int]),
                  headCrashAt = 11, bug = ANYACK)); } } }
