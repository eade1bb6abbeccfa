// pcheck-args: --search random --seed 1 --schedules 20
// Enum values in collections and payloads, as map keys, compared, and
// converted to int; numbered and plain enums side by side.
enum Vote { YES, NO, ABSTAIN }
enum Status { ACTIVE = 1, RETIRED = 7 }
event eVote : (who: int, v: Vote);
machine Main {
  var tally: map[Vote, int];
  var st: set[Status];
  start state S {
    entry {
      tally[YES] = 0; tally[NO] = 0; tally[ABSTAIN] = 0;
      st += (ACTIVE);
      send this, eVote, (who = 1, v = YES);
      send this, eVote, (who = 2, v = NO);
      send this, eVote, (who = 3, v = YES);
    }
    on eVote do (b: (who: int, v: Vote)) {
      tally[b.v] = tally[b.v] + 1;
      if (b.who == 3) {
        assert tally[YES] == 2 && tally[NO] == 1 && tally[ABSTAIN] == 0;
        assert ACTIVE in st && !(RETIRED in st) && RETIRED to int == 7 && ACTIVE to int == 1;
        assert YES != NO && ABSTAIN to int == 2 && choose(keys(tally)) in tally;
      }
    }
  }
}
