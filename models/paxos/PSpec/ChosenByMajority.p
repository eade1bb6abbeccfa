/* Safety, independent of the learners: a value is chosen once a majority
   of the acceptors accepted it with the same ballot (observed through the
   eAccepted messages the acceptors send to the learners); at most one value
   is ever chosen. The test driver announces the majority first. With one
   learner, OneValueChosen cannot see a second value (the learner learns
   once); this spec sees every acceptance. */
event eSpecMajority : int;

spec ChosenByMajority observes eSpecMajority, eAccepted {
  var majority: int;
  var acceptedBy: map[tBallot, set[Acceptor]];
  var chosen: int;
  var chosenBallot: tBallot;
  start state NothingChosen {
    on eSpecMajority do (n: int) { majority = n; }
    on eAccepted do (a: tAccepted) {
      if (Record(a)) {
        chosen = a.value;
        chosenBallot = a.ballot;
        goto Chosen;
      }
    }
  }
  state Chosen {
    on eAccepted do (a: tAccepted) {
      if (Record(a)) {
        assert a.value == chosen,
          format("two values chosen: {0} with ballot {1} and {2} with ballot {3}",
                 chosen, chosenBallot, a.value, a.ballot);
      }
    }
  }
  /* Records an acceptance; true if its ballot has a majority. */
  fun Record(a: tAccepted) : bool {
    if (!(a.ballot in acceptedBy)) {
      acceptedBy[a.ballot] = default(set[Acceptor]);
    }
    acceptedBy[a.ballot] += (a.acceptor);
    return sizeof(acceptedBy[a.ballot]) >= majority;
  }
}
