/* A replica applies the chosen values to its copy of the log in slot order;
   a decision for a later slot waits until the earlier ones are known. */
machine Replica {
  var next: int;                   // the next slot to apply
  var pending: map[int, int];      // decisions that cannot be applied yet

  start state Init {
    entry {
      goto Apply;
    }
  }

  state Apply {
    on eDecision do (d: (slot: int, val: int)) {
      if (d.slot < next || d.slot in pending) { return; }   // already known
      pending[d.slot] = d.val;
      while (next in pending) {
        announce eApplied, (replica = this, slot = next, val = pending[next]);
        pending -= (next);
        next = next + 1;
      }
    }
  }
}
