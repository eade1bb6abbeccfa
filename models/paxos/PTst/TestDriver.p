/* Test drivers: learners, acceptors and proposers (proposer i, from 1,
   proposes the value 10 * i), running the correct protocol or one seeded
   bug. A proposer sends its requests to every acceptor, or, with thrifty
   quorums, to a majority only: proposer i to acceptors i-1 .. i-1+majority-1
   (modulo the number of acceptors), so that with three acceptors proposer 1
   talks to acceptors 0 and 1, proposer 2 to acceptors 1 and 2 (the two
   quorums meet in acceptor 1). A proposer waits for a majority of the
   acceptors it talks to, which with thrifty quorums is all of them. */
/* A proposer's part of a test: how many rounds it may try, and the
   acceptors it talks to (their indices; empty: every acceptor). */
type tProposerSetup = (maxRounds: int, quorum: seq[int]);
type tPaxosConfig = (numAcceptors: int, numLearners: int, proposers: seq[tProposerSetup], bug: tPaxosBug);

/* Two proposers with different values, three acceptors, two learners. */
machine TwoProposers {
  start state Init {
    entry {
      SetUpPaxos((numAcceptors = 3, numLearners = 2, proposers = Two(2, All(), 2, All()), bug = PX_NONE));
    }
  }
}

/* One proposer with two rounds, every acceptor, two learners. */
machine OneProposer {
  start state Init {
    entry {
      SetUpPaxos((numAcceptors = 3, numLearners = 2, proposers = One(2, All()), bug = PX_NONE));
    }
  }
}

/* Two proposers with one round each, thrifty quorums, one learner. */
machine ThriftyOneRound {
  start state Init {
    entry {
      SetUpPaxos((numAcceptors = 3, numLearners = 1, proposers = Two(1, Pair(0, 1), 1, Pair(1, 2)), bug = PX_NONE));
    }
  }
}

/* As ThriftyOneRound, proposer 1 may retry once. */
machine ThriftyRetry {
  start state Init {
    entry {
      SetUpPaxos((numAcceptors = 3, numLearners = 1, proposers = Two(2, Pair(0, 1), 1, Pair(1, 2)), bug = PX_NONE));
    }
  }
}

fun All() : seq[int] {
  return default(seq[int]);
}

fun Pair(a: int, b: int) : seq[int] {
  var q: seq[int];
  q += (0, a);
  q += (1, b);
  return q;
}

fun One(r1: int, q1: seq[int]) : seq[tProposerSetup] {
  var ps: seq[tProposerSetup];
  ps += (0, (maxRounds = r1, quorum = q1));
  return ps;
}

fun Two(r1: int, q1: seq[int], r2: int, q2: seq[int]) : seq[tProposerSetup] {
  var ps: seq[tProposerSetup];
  ps += (0, (maxRounds = r1, quorum = q1));
  ps += (1, (maxRounds = r2, quorum = q2));
  return ps;
}

fun SetUpPaxos(cfg: tPaxosConfig) {
  var acceptors: seq[Acceptor];
  var learners: seq[Learner];
  var quorum: seq[Acceptor];
  var majority: int;
  var i: int;
  var j: int;
  majority = cfg.numAcceptors / 2 + 1;
  announce eSpecMajority, majority;
  while (i < cfg.numLearners) {
    learners += (i, new Learner((majority = majority,)));
    i = i + 1;
  }
  i = 0;
  while (i < cfg.numAcceptors) {
    acceptors += (i, new Acceptor((learners = learners, bug = cfg.bug)));
    i = i + 1;
  }
  i = 0;
  while (i < sizeof(cfg.proposers)) {
    announce eProposed, 10 * (i + 1);
    i = i + 1;
  }
  i = 0;
  while (i < sizeof(cfg.proposers)) {
    quorum = acceptors;
    if (sizeof(cfg.proposers[i].quorum) > 0) {
      quorum = default(seq[Acceptor]);
      foreach (j in cfg.proposers[i].quorum) {
        quorum += (sizeof(quorum), acceptors[j]);
      }
    }
    new Proposer((acceptors = quorum, id = i + 1, value = 10 * (i + 1),
                  maxRounds = cfg.proposers[i].maxRounds, bug = cfg.bug));
    i = i + 1;
  }
}
