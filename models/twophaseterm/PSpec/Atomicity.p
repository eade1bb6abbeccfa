/* Atomic commitment (Bernstein et al., chapter 7, conditions AC1 and AC2:
   no two processes reach different decisions, and a decision is final):
   all the decisions taken for a transaction, by a coordinator or by the
   termination protocol, and every outcome a participant applies (its
   unilateral aborts included), are the same. */
spec Atomicity observes eSpecDecided, eSpecOutcome {
  var decision: map[int, bool];     // txn -> the first decision or outcome seen
  var who: map[int, string];

  start state Watching {
    on eSpecDecided do (m: (txn: int, decider: int, commit: bool)) {
      if (m.decider == 0) {
        Check(m.txn, m.commit, "the termination protocol");
      } else {
        Check(m.txn, m.commit, format("coordinator {0}", m.decider));
      }
    }
    on eSpecOutcome do (m: (txn: int, participant: int, commit: bool)) {
      Check(m.txn, m.commit, format("participant {0}", m.participant));
    }
  }

  fun Check(t: int, commit: bool, by: string) {
    if (t in decision) {
      assert decision[t] == commit,
        format("transaction {0}: {1} {2}, but {3} {4}", t, who[t], Word(decision[t]), by, Word(commit));
    } else {
      decision[t] = commit;
      who[t] = by;
    }
  }

  fun Word(commit: bool) : string {
    if (commit) {
      return "committed";
    }
    return "aborted";
  }
}
