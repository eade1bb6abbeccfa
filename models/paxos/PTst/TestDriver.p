/* Two proposers with different values, three acceptors, two learners. */
machine TwoProposers {
  start state Init {
    entry {
      var acceptors: seq[Acceptor];
      var learners: seq[Learner];
      var i: int;
      while (i < 2) {
        learners += (i, new Learner((majority = 2,)));
        i = i + 1;
      }
      i = 0;
      while (i < 3) {
        acceptors += (i, new Acceptor(learners));
        i = i + 1;
      }
      announce eProposed, 10;
      announce eProposed, 20;
      new Proposer((acceptors = acceptors, id = 1, value = 10, maxRounds = 2));
      new Proposer((acceptors = acceptors, id = 2, value = 20, maxRounds = 2));
    }
  }
}
