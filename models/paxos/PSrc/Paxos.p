/* Single-decree Paxos: proposers try to get a value chosen by a majority
   of acceptors; learners learn a value once a majority accepted it.
   Ballots are (round, proposer id) pairs compared lexicographically. */
type tBallot = (round: int, pid: int);
type tPrepare = (proposer: Proposer, ballot: tBallot);
type tPromise = (acceptor: Acceptor, ballot: tBallot, acceptedBallot: tBallot, acceptedValue: int);
type tAccept = (proposer: Proposer, ballot: tBallot, value: int);
type tAccepted = (acceptor: Acceptor, ballot: tBallot, value: int);

event ePrepare : tPrepare;
event ePromise : tPromise;
event eNack : tBallot;
event eAccept : tAccept;
event eAccepted : tAccepted;
event eLearn : (learner: Learner, value: int);
event eChosen : int;

fun BallotLess(a: tBallot, b: tBallot) : bool {
  return a.round < b.round || (a.round == b.round && a.pid < b.pid);
}

machine Acceptor {
  var promised: tBallot;
  var acceptedBallot: tBallot;
  var acceptedValue: int;
  var learners: seq[Learner];

  start state Init {
    entry (ls: seq[Learner]) {
      learners = ls;
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
        send req.proposer, eNack, promised;
      }
    }
    on eAccept do (req: tAccept) {
      var l: Learner;
      if (!BallotLess(req.ballot, promised)) {
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

  start state Init {
    entry (config: (acceptors: seq[Acceptor], id: int, value: int, maxRounds: int)) {
      acceptors = config.acceptors;
      id = config.id;
      value = config.value;
      maxRounds = config.maxRounds;
      goto Prepare;
    }
  }

  state Prepare {
    entry {
      var a: Acceptor;
      promises = default(set[Acceptor]);
      highestAccepted = (round = -1, pid = -1);
      proposal = value;
      foreach (a in acceptors) {
        send a, ePrepare, (proposer = this, ballot = (round = round, pid = id));
      }
    }
    on ePromise do (p: tPromise) {
      if (p.ballot.round == round && p.ballot.pid == id) {
        promises += (p.acceptor);
        if (p.acceptedValue != -1 && BallotLess(highestAccepted, p.acceptedBallot)) {
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

  fun RetryOrGiveUp() {
    if (round + 1 < maxRounds) {
      round = round + 1;
      goto Prepare;
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
