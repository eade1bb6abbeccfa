/* Two-phase commit with N participants, for the side-by-side benchmark
   against SPIN (bench/spin/twophase.pml is the same protocol in Promela).
   The coordinator creates the participants, asks each to prepare, counts
   the votes (each participant votes yes or no nondeterministically), then
   tells everyone to commit (all yes) or abort. */
param N : int;

event ePrepare;
event eVote : (participant: Participant, yes: bool);
event eCommit;
event eAbort;

machine Coordinator {
  var participants: seq[Participant];
  var votes: int;
  var yes: int;

  start state Init {
    entry {
      var i: int;
      while (i < N) {
        participants += (i, new Participant(this));
        i = i + 1;
      }
      i = 0;
      while (i < N) {
        send participants[i], ePrepare;
        i = i + 1;
      }
      goto CollectVotes;
    }
  }

  state CollectVotes {
    on eVote do (v: (participant: Participant, yes: bool)) {
      votes = votes + 1;
      if (v.yes) { yes = yes + 1; }
      if (votes == N) {
        if (yes == N) { Broadcast(eCommit); } else { Broadcast(eAbort); }
        goto Decided;
      }
    }
  }

  state Decided { }

  fun Broadcast(e: event) {
    var i: int;
    while (i < N) {
      send participants[i], e;
      i = i + 1;
    }
  }
}

machine Participant {
  var coordinator: Coordinator;
  start state Init {
    entry (c: Coordinator) { coordinator = c; }
    on ePrepare do {
      send coordinator, eVote, (participant = this, yes = $);
    }
    on eCommit, eAbort goto Finished;
  }
  state Finished { }
}

test param (N in [3, 4, 5, 6]) tcTwoPhase [main=Coordinator]: { Coordinator, Participant };
