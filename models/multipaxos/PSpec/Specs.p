/* Safety (consensus): at most one value is chosen for each slot (a value
   is chosen when a majority of acceptors accepted it with one ballot), and
   a replica applies, for each slot, the value chosen for it; hence the
   replicas' logs agree. */
spec Consensus observes eSpecConfig, eAccepted, eApplied {
  var nAcceptors: int;
  var votes: map[tBallot, map[int, set[machine]]];   // ballot -> slot -> acceptors
  var chosen: map[int, int];                         // slot -> chosen value

  start state Init {
    on eSpecConfig goto Watch with (c: (nAcceptors: int, nReplicas: int, nSlots: int)) {
      nAcceptors = c.nAcceptors;
    }
  }

  state Watch {
    on eAccepted do (a: (acceptor: Acceptor, ballot: tBallot, slot: int, val: int)) {
      if (!(a.ballot in votes)) { votes[a.ballot] = default(map[int, set[machine]]); }
      if (!(a.slot in votes[a.ballot])) { votes[a.ballot][a.slot] = default(set[machine]); }
      votes[a.ballot][a.slot] += (a.acceptor);
      if (sizeof(votes[a.ballot][a.slot]) * 2 > nAcceptors) {
        if (a.slot in chosen) {
          assert chosen[a.slot] == a.val,
            format("two values chosen for slot {0}: {1} and {2}", a.slot, chosen[a.slot], a.val);
        } else {
          chosen[a.slot] = a.val;
        }
      }
    }
    on eApplied do (e: (replica: Replica, slot: int, val: int)) {
      assert e.slot in chosen, format("a replica applied {0} in slot {1}, where nothing was chosen", e.val, e.slot);
      assert chosen[e.slot] == e.val,
        format("a replica applied {0} in slot {1}, where {2} was chosen", e.val, e.slot, chosen[e.slot]);
    }
  }
}

/* Liveness: every replica eventually applies every slot (the leader with
   the highest id never gives up, so every slot is eventually decided). */
spec LogsComplete observes eSpecConfig, eApplied {
  var remaining: int;              // slot applications still to come
  start state Init {
    on eSpecConfig goto Filling with (c: (nAcceptors: int, nReplicas: int, nSlots: int)) {
      remaining = c.nReplicas * c.nSlots;
    }
  }
  hot state Filling {
    on eApplied do {
      remaining = remaining - 1;
      if (remaining == 0) { goto Complete; }
    }
  }
  cold state Complete {
    ignore eApplied;
  }
}
