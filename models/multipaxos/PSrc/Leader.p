/* A leader (proposer) of multi-Paxos. One leader is active at a time in
   the normal case; when the other leader's failure detector times out on
   it, the other leader takes over with a higher ballot. The suspected
   leader is not necessarily dead: it goes on until an acceptor tells it
   of a higher ballot, and then steps down.

   A leader runs phase 1 once for its ballot, for every slot at once; then
   phase 2 per slot, in slot order (a window of one): it proposes the value
   accepted with the highest ballot among the promises it got, or else its
   own value for the slot; when the acceptors accept, the value is chosen
   and the leader sends the decision to the replicas. A new leader decides
   every slot again (the promises tell it what may have been chosen).

   Thrifty quorums: leader i talks to its preferred majority, acceptors
   i-1 and i of the three (leader 1: acceptors 0 and 1; leader 2: 1 and 2),
   so two quorums meet in acceptor 1.

   suspectAt: the slot at which the peer's failure detector times out on
   this leader (modelled as: when it is about to propose for that slot;
   -1: never). */
machine Leader {
  var bug: tBug;
  var id: int;
  var acceptors: seq[Acceptor];
  var replicas: seq[Replica];
  var peer: Leader;
  var myValues: seq[int];                    // own value for each slot
  var suspectAt: int;
  var ballot: tBallot;
  var promises: set[Acceptor];
  var best: map[int, tPValue];               // highest-ballot accepted proposal per slot
  var slot: int;                             // the slot being decided
  var proposal: int;                         // the value proposed for it
  var votes: set[Acceptor];                  // acceptors that accepted it

  start state Init {
    entry (cfg: (id: int, acceptors: seq[Acceptor], replicas: seq[Replica], peer: Leader,
                 myValues: seq[int], suspectAt: int, bug: tBug)) {
      id = cfg.id;
      acceptors = cfg.acceptors;
      replicas = cfg.replicas;
      peer = cfg.peer;
      myValues = cfg.myValues;
      suspectAt = cfg.suspectAt;
      bug = cfg.bug;
      goto Standby;
    }
  }

  state Standby {
    on ePeer do (p: Leader) { peer = p; }
    on eTakeOver goto Phase1 with TakeOver;
    ignore eP1b, eP2b, eNack;                // answers to a ballot it gave up
  }

  state Phase1 {
    entry {
      promises = default(set[Acceptor]);
      best = default(map[int, tPValue]);
      send acceptors[id - 1], eP1a, (leader = this, ballot = ballot);
      send acceptors[id], eP1a, (leader = this, ballot = ballot);
      if (bug == LATEP1B) {
        // BUG LateP1b: the leader also asks the third acceptor for a
        // promise, in case one of its quorum is slow, and goes on with the
        // first majority; but Phase2 does not expect the promise that comes
        // after the majority.
        send acceptors[(id + 1) % 3], eP1a, (leader = this, ballot = ballot);
      }
    }
    on eP1b do (p: (acceptor: Acceptor, ballot: tBallot, accepted: map[int, tPValue])) {
      var s: int;
      if (p.ballot != ballot) { return; }      // for an earlier ballot
      promises += (p.acceptor);
      foreach (s in keys(p.accepted)) {
        if (!(s in best)) {
          best[s] = p.accepted[s];
        } else if (BallotLess(best[s].ballot, p.accepted[s].ballot) && bug != FIRSTVALUE) {
          // BUG FirstValue: the leader keeps the first accepted value a
          // promise reports for a slot, not the one with the highest
          // ballot; which promise comes first is a race.
          best[s] = p.accepted[s];
        }
      }
      if (sizeof(promises) * 2 > sizeof(acceptors)) { goto Phase2; }
    }
    on eNack do OnNack;
    ignore eP2b;                             // for an earlier ballot
    on eTakeOver goto Phase1 with TakeOver;
  }

  state Phase2 {
    entry {
      slot = 0;
      ProposeNext();
    }
    on eP2b do (b: (acceptor: Acceptor, ballot: tBallot, slot: int)) {
      var r: Replica;
      if (b.ballot != ballot || b.slot != slot) { return; }
      votes += (b.acceptor);
      if (sizeof(votes) * 2 > sizeof(acceptors)) {
        foreach (r in replicas) {
          send r, eDecision, (slot = slot, val = proposal);
        }
        slot = slot + 1;
        ProposeNext();
      }
    }
    on eNack do OnNack;
    on eTakeOver goto Phase1 with TakeOver;
  }

  // Every slot decided; still the leader.
  state Leading {
    ignore eP2b, eNack;
    on eTakeOver goto Phase1 with TakeOver;
  }

  fun TakeOver(t: (round: int)) {
    ballot = (round = t.round, lid = id);
  }

  fun ProposeNext() {
    var a: Acceptor;
    if (slot == sizeof(myValues)) { goto Leading; }
    if (slot == suspectAt) {
      // The peer's failure detector times out: the peer takes over with
      // the lowest ballot above this leader's.
      suspectAt = -1;
      if (id == 1) {
        send peer, eTakeOver, (round = ballot.round,);
      } else {
        send peer, eTakeOver, (round = ballot.round + 1,);
      }
    }
    if (slot in best) {
      proposal = best[slot].val;
    } else {
      proposal = myValues[slot];
    }
    votes = default(set[Acceptor]);
    foreach (a in promises) {
      send a, eP2a, (leader = this, ballot = ballot, slot = slot, val = proposal);
    }
  }

  // A higher ballot exists: another leader took over; step down.
  fun OnNack(n: (ballot: tBallot)) {
    if (bug == STALENACK) {
      // BUG StaleNack: any refusal makes the leader step down, also one
      // that answers a message of its own earlier ballot: after it took
      // over again, nobody leads.
      goto Standby;
    }
    if (BallotLess(ballot, n.ballot)) { goto Standby; }
  }
}
