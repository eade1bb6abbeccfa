/* Test drivers: two leaders with different values for each slot, three
   acceptors, two replicas. Leader 1 leads first (ballot round 0).
   suspect1/suspect2: the slot at which leader 1/2 is suspected and the
   other takes over (-1: never). */
type tMPConfig = (nSlots: int, suspect1: int, suspect2: int, acceptorCrashes: int, bug: tBug);

fun SetUpMultiPaxos(cfg: tMPConfig) {
  var acceptors: seq[Acceptor];
  var replicas: seq[Replica];
  var leader1: Leader;
  var leader2: Leader;
  var values1: seq[int];
  var values2: seq[int];
  var i: int;
  announce eSpecConfig, (nAcceptors = 3, nReplicas = 2, nSlots = cfg.nSlots);
  while (i < 2) {
    replicas += (i, new Replica());
    i = i + 1;
  }
  i = 0;
  while (i < 3) {
    // only the second acceptor may crash
    acceptors += (i, new Acceptor((crashes = Crashes(i == 1, cfg.acceptorCrashes), bug = cfg.bug)));
    i = i + 1;
  }
  i = 0;
  while (i < cfg.nSlots) {
    values1 += (i, 10 + i);
    values2 += (i, 20 + i);
    i = i + 1;
  }
  leader2 = new Leader((id = 2, acceptors = acceptors, replicas = replicas, peer = default(Leader),
                        myValues = values2, suspectAt = cfg.suspect2, bug = cfg.bug));
  leader1 = new Leader((id = 1, acceptors = acceptors, replicas = replicas, peer = leader2,
                        myValues = values1, suspectAt = cfg.suspect1, bug = cfg.bug));
  send leader2, ePeer, leader1;
  send leader1, eTakeOver, (round = 0,);     // leader 1 leads first
}

fun Crashes(mayCrash: bool, n: int) : int {
  if (mayCrash) { return n; }
  return 0;
}

machine NoFailover { start state Init { entry {
  SetUpMultiPaxos((nSlots = 2, suspect1 = -1, suspect2 = -1, acceptorCrashes = 0, bug = NONE)); } } }
machine OneFailover { start state Init { entry {
  SetUpMultiPaxos((nSlots = 1, suspect1 = 0, suspect2 = -1, acceptorCrashes = 0, bug = NONE)); } } }
machine OneFailoverCrash { start state Init { entry {
  SetUpMultiPaxos((nSlots = 1, suspect1 = 0, suspect2 = -1, acceptorCrashes = 1, bug = NONE)); } } }
machine TwoFailovers { start state Init { entry {
  SetUpMultiPaxos((nSlots = 1, suspect1 = 0, suspect2 = 0, acceptorCrashes = 0, bug = NONE)); } } }
machine OneFailoverTwoSlots { start state Init { entry {
  SetUpMultiPaxos((nSlots = 2, suspect1 = 1, suspect2 = -1, acceptorCrashes = 0, bug = NONE)); } } }

// Bug variants.
machine BugLateP1b { start state Init { entry {
  SetUpMultiPaxos((nSlots = 1, suspect1 = -1, suspect2 = -1, acceptorCrashes = 0, bug = LATEP1B)); } } }
machine BugFirstValue { start state Init { entry {
  SetUpMultiPaxos((nSlots = 1, suspect1 = 0, suspect2 = 0, acceptorCrashes = 0, bug = FIRSTVALUE)); } } }
machine BugStaleP2a { start state Init { entry {
  SetUpMultiPaxos((nSlots = 1, suspect1 = 0, suspect2 = -1, acceptorCrashes = 0, bug = STALEP2A)); } } }
machine BugEarlyReply { start state Init { entry {
  SetUpMultiPaxos((nSlots = 1, suspect1 = 0, suspect2 = -1, acceptorCrashes = 1, bug = EARLYREPLY)); } } }
machine BugStaleNack { start state Init { entry {
  SetUpMultiPaxos((nSlots = 1, suspect1 = 0, suspect2 = 0, acceptorCrashes = 0, bug = STALENACK)); } } }
