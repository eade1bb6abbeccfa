/* Test drivers: a chain of servers, a master, clients and a fault
   injector; the configuration says how many of each, how many servers
   may fail, and which bug (if any) is seeded. */
type tCRConfig = (nServers: int, nClients: int, nUpdates: int, query: bool, nFailures: int, failable: set[int], bug: tBug);

fun SetUpChainReplication(cfg: tCRConfig) {
  var servers: seq[Server];
  var clients: seq[Client];
  var master: Master;
  var injector: FaultInjector;
  var failable: set[Server];
  var i: int;
  // The servers and the fault injector need the master; the master learns
  // of them through a message.
  while (i < cfg.nClients) {
    clients += (i, new Client((id = i + 1, nUpdates = cfg.nUpdates, query = cfg.query)));
    i = i + 1;
  }
  master = new Master((clients = clients, bug = cfg.bug));
  i = 0;
  while (i < cfg.nServers) {
    servers += (i, new Server((master = master, bug = cfg.bug)));
    i = i + 1;
  }
  foreach (i in cfg.failable) { failable += (servers[i]); }
  injector = new FaultInjector((master = master, servers = failable, nFailures = cfg.nFailures));
  send master, eConfigure, (chain = servers, injector = injector);
}

// One test-case main machine per configuration (a main machine takes no
// payload). Servers are numbered 0 (the head) to nServers - 1 (the tail);
// `failable` lists those the fault injector may crash.
machine NoFailure { start state Init { entry {
  SetUpChainReplication((nServers = 3, nClients = 1, nUpdates = 2, query = true,
                         nFailures = 0, failable = default(set[int]), bug = NONE)); } } }
machine OneFailure { start state Init { entry {
  SetUpChainReplication((nServers = 3, nClients = 1, nUpdates = 2, query = true,
                         nFailures = 1, failable = AllServers(3), bug = NONE)); } } }
machine TwoFailuresTail { start state Init { entry {
  SetUpChainReplication((nServers = 3, nClients = 1, nUpdates = 1, query = false,
                         nFailures = 2, failable = Servers(1, 2), bug = NONE)); } } }
machine TwoFailuresHead { start state Init { entry {
  SetUpChainReplication((nServers = 3, nClients = 1, nUpdates = 1, query = true,
                         nFailures = 2, failable = Servers(0, 1), bug = NONE)); } } }

fun AllServers(n: int) : set[int] {
  var s: set[int];
  var i: int;
  while (i < n) { s += (i); i = i + 1; }
  return s;
}

fun Servers(a: int, b: int) : set[int] {
  var s: set[int];
  s += (a);
  s += (b);
  return s;
}
machine TwoClients { start state Init { entry {
  SetUpChainReplication((nServers = 3, nClients = 2, nUpdates = 1, query = true,
                         nFailures = 0, failable = default(set[int]), bug = NONE)); } } }

// Bug variants.
machine BugBootCrash { start state Init { entry {
  SetUpChainReplication((nServers = 3, nClients = 1, nUpdates = 1, query = false,
                         nFailures = 1, failable = AllServers(3), bug = BOOTCRASH)); } } }
machine BugNeighbours { start state Init { entry {
  SetUpChainReplication((nServers = 3, nClients = 1, nUpdates = 1, query = false,
                         nFailures = 2, failable = Servers(1, 2), bug = NEIGHBOURS)); } } }
machine BugStaleAck { start state Init { entry {
  SetUpChainReplication((nServers = 3, nClients = 1, nUpdates = 1, query = true,
                         nFailures = 2, failable = Servers(1, 2), bug = STALEACK)); } } }
machine BugNoFence { start state Init { entry {
  SetUpChainReplication((nServers = 3, nClients = 1, nUpdates = 1, query = false,
                         nFailures = 1, failable = Servers(1, 1), bug = NOFENCE)); } } }
machine BugTailNoAck { start state Init { entry {
  SetUpChainReplication((nServers = 3, nClients = 1, nUpdates = 1, query = false,
                         nFailures = 1, failable = Servers(2, 2), bug = TAILNOACK)); } } }
