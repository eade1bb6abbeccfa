/* Safety: every learner learns the same value, and only a proposed one. */
event eProposed : int;

spec OneValueChosen observes eChosen, eProposed {
  var chosen: int;
  var proposed: set[int];
  start state NothingChosen {
    on eProposed do (v: int) { proposed += (v); }
    on eChosen goto Chosen with (v: int) {
      assert v in proposed, format("value {0} was chosen but never proposed", v);
      chosen = v;
    }
  }
  state Chosen {
    on eProposed do (v: int) { proposed += (v); }
    on eChosen do (v: int) {
      assert v == chosen, format("two values chosen: {0} and {1}", chosen, v);
    }
  }
}
