/* Single-decree Paxos: proposers try to get a value chosen by a majority
   of acceptors; learners learn a value once a majority accepted it.
   Ballots are (round, proposer id) pairs compared lexicographically. */
type tBallot = (round: int, pid: int);
type tPrepare = (proposer: Proposer, ballot: tBallot);
type tPromise = (acceptor: Acceptor, ballot: tBallot, acceptedBallot: tBallot, acceptedValue: int);
type tAccept = (proposer: Proposer, ballot: tBallot, value: int);
type tAccepted = (acceptor: Acceptor, ballot: tBallot, value: int);

/* The seeded bugs (PTst/BugTests.p); PX_NONE is the correct protocol. */
enum tPaxosBug { PX_NONE, PX_STALE_ACCEPT, PX_ROUND_ONLY, PX_STALE_PROMISE, PX_NACK_AFTER_GIVE_UP, PX_SILENT_NACK }

type tAcceptorConfig = (learners: seq[Learner], bug: tPaxosBug);
type tProposerConfig = (acceptors: seq[Acceptor], id: int, value: int, maxRounds: int, bug: tPaxosBug);

event ePrepare : tPrepare;
event ePromise : tPromise;
event eNack : tBallot;
event eAccept : tAccept;
event eAccepted : tAccepted;
event eLearn : (learner: Learner, value: int);
event eChosen : int;

// announced for the specs: a proposer starts / ends phase 1 of a round
event ePhaseOneStarted : int;
event ePhaseOneEnded : int;

fun BallotLess(a: tBallot, b: tBallot) : bool {
  return a.round < b.round || (a.round == b.round && a.pid < b.pid);
}

machine Acceptor {
  var promised: tBallot;
  var acceptedBallot: tBallot;
  var acceptedValue: int;
  var learners: seq[Learner];
  var bug: tPaxosBug;

  start state Init {
    entry (config: tAcceptorConfig) {
      learners = config.learners;
      bug = config.bug;
      promised = (round = -1, pid = -1);
      acceptedBallot = (round = -1, pid = -1);
      acceptedValue = -1;
      goto Serve;
    }
  }

  state Serve {
    on ePrepare do (req: tPrepare) {
      if (BallotLess(promised, req.ballot)) {
        promised = req.ballot;
        send req.proposer, ePromise, (acceptor = this, ballot = req.ballot,
                                      acceptedBallot = acceptedBallot, acceptedValue = acceptedValue);
      } else {
        // BUG SilentNack: a prepare of a ballot below the promise is stale,
        // "no need to answer it"; its proposer waits for an answer forever.
        if (bug == PX_SILENT_NACK) {
          return;
        }
        send req.proposer, eNack, promised;
      }
    }
    on eAccept do (req: tAccept) {
      var l: Learner;
      var bar: tBallot;
      bar = promised;
      // BUG StaleAccept: the proposal is checked against the ballot accepted
      // last, not against the promise: a proposal of a ballot the acceptor
      // promised to ignore is accepted.
      if (bug == PX_STALE_ACCEPT) {
        bar = acceptedBallot;
      }
      if (!BallotLess(req.ballot, bar)) {
        promised = req.ballot;
        acceptedBallot = req.ballot;
        acceptedValue = req.value;
        foreach (l in learners) {
          send l, eAccepted, (acceptor = this, ballot = req.ballot, value = req.value);
        }
      } else {
        send req.proposer, eNack, promised;
      }
    }
  }
}

machine Proposer {
  var acceptors: seq[Acceptor];
  var id: int;
  var value: int;
  var round: int;
  var promises: set[Acceptor];
  var highestAccepted: tBallot;
  var proposal: int;
  var maxRounds: int;
  var bug: tPaxosBug;

  start state Init {
    entry (config: tProposerConfig) {
      acceptors = config.acceptors;
      id = config.id;
      value = config.value;
      maxRounds = config.maxRounds;
      bug = config.bug;
      goto Prepare;
    }
  }

  state Prepare {
    entry {
      var a: Acceptor;
      announce ePhaseOneStarted, id;
      promises = default(set[Acceptor]);
      highestAccepted = (round = -1, pid = -1);
      proposal = value;
      foreach (a in acceptors) {
        send a, ePrepare, (proposer = this, ballot = (round = round, pid = id));
      }
    }
    exit {
      announce ePhaseOneEnded, id;
    }
    on ePromise do (p: tPromise) {
      var higher: bool;
      var current: bool;
      current = p.ballot.round == round && p.ballot.pid == id;
      // BUG StalePromise: a promise is matched to the proposer only, not to
      // the round: a late promise of an earlier round counts in this one
      // (and reports what its acceptor had accepted back then).
      if (bug == PX_STALE_PROMISE) {
        current = p.ballot.pid == id;
      }
      if (current) {
        promises += (p.acceptor);
        higher = BallotLess(highestAccepted, p.acceptedBallot);
        // BUG RoundOnly: the reported ballots are compared by round only;
        // of two values accepted in the same round (by different
        // proposers) the one reported first is kept.
        if (bug == PX_ROUND_ONLY) {
          higher = highestAccepted.round < p.acceptedBallot.round;
        }
        if (p.acceptedValue != -1 && higher) {
          highestAccepted = p.acceptedBallot;
          proposal = p.acceptedValue;
        }
        if (sizeof(promises) * 2 > sizeof(acceptors)) {
          goto Propose;
        }
      }
    }
    on eNack do (b: tBallot) { RetryOrGiveUp(); }
    ignore eChosen;
  }

  state Propose {
    entry {
      var a: Acceptor;
      foreach (a in acceptors) {
        send a, eAccept, (proposer = this, ballot = (round = round, pid = id), value = proposal);
      }
    }
    on eNack do (b: tBallot) { RetryOrGiveUp(); }
    ignore ePromise;
    on eChosen goto Done;
  }

  state Done {
    ignore ePromise, eNack, eChosen;
  }

  /* Where a proposer of the NackAfterGiveUp variant stops: written for
     "a refusal ends the round", it expects no further refusal. */
  state GaveUp {
    ignore ePromise, eChosen;
  }

  fun RetryOrGiveUp() {
    if (round + 1 < maxRounds) {
      round = round + 1;
      goto Prepare;
    }
    // BUG NackAfterGiveUp: the proposer stops in a state without a handler
    // for eNack, but the other acceptors of the round may still refuse too.
    if (bug == PX_NACK_AFTER_GIVE_UP) {
      goto GaveUp;
    }
    goto Done;
  }
}

machine Learner {
  var acceptedBy: map[tBallot, set[Acceptor]];
  var majority: int;
  var proposers: seq[Proposer];
  var learned: bool;

  start state Init {
    entry (config: (majority: int)) {
      majority = config.majority;
      goto Learn;
    }
  }

  state Learn {
    on eAccepted do (a: tAccepted) {
      var p: Proposer;
      if (!(a.ballot in acceptedBy)) {
        acceptedBy[a.ballot] = default(set[Acceptor]);
      }
      acceptedBy[a.ballot] += (a.acceptor);
      if (sizeof(acceptedBy[a.ballot]) == majority && !learned) {
        learned = true;
        announce eChosen, a.value;
      }
    }
  }
}
