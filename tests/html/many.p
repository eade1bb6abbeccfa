// Ten machines: a client (Main), a coordinator and eight participants; the
// bug (a commit despite a "no" vote) is the participant's that voted no,
// which talks to the coordinator alone.  For tests/html.sh: a crowded
// diagram folds the lifelines not involved in the bug.
event ePrepare : machine;
event eVote : (p: machine, yes: bool);
event eCommit;
event eRequest : machine;
event eDone : bool;

machine Participant {
  var no: bool;
  start state Init {
    entry (vote_no: bool) { no = vote_no; goto Ready; }
  }
  state Ready {
    on ePrepare do (c: machine) { send c, eVote, (p = this, yes = !no); }
    on eCommit do { assert !no, "a participant that voted no was told to commit"; }
  }
}

machine Coordinator {
  var parts: seq[machine];
  var votes: int;
  var client: machine;
  start state Init {
    entry {
      var i: int;
      while (i < 8) { parts += (i, new Participant(i == 5)); i = i + 1; }
      goto Wait;
    }
  }
  state Wait {
    on eRequest do (c: machine) {
      var p: machine;
      client = c;
      foreach (p in parts) send p, ePrepare, this;
      goto Collect;
    }
  }
  state Collect {
    // The bug: a "no" vote is counted as a "yes".
    on eVote do (v: (p: machine, yes: bool)) {
      var p: machine;
      votes = votes + 1;
      if (votes == sizeof(parts)) {
        foreach (p in parts) send p, eCommit;
        send client, eDone, true;
      }
    }
  }
}

machine Main {
  start state Init {
    entry { send new Coordinator(), eRequest, this; }
    on eDone do (ok: bool) { }
  }
}
