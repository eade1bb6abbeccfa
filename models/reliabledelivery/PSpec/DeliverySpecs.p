/* Safety: the consumer gets the messages the producer submitted, in the
   order submitted, each once: every delivery is the next message
   submitted and not yet delivered. */
spec InOrderExactlyOnce observes eSubmit, eDeliver {
  var submitted: seq[int];
  var numDelivered: int;

  start state Watching {
    on eSubmit do (batch: seq[int]) {
      var i: int;
      while (i < sizeof(batch)) {
        submitted += (sizeof(submitted), batch[i]);
        i = i + 1;
      }
    }

    on eDeliver do (payload: int) {
      assert numDelivered < sizeof(submitted),
        format("message {0} delivered after all {1} messages submitted were", payload, sizeof(submitted));
      assert payload == submitted[numDelivered],
        format("delivery {0} is message {1}, expected {2}", numDelivered + 1, payload, submitted[numDelivered]);
      numDelivered = numDelivered + 1;
    }
  }
}

/* Liveness: every message submitted is delivered. Hot while some message
   is on its way. On a lossy network this holds only because the network's
   coin is fair: had it lost every packet, the sender would retransmit for
   ever. */
spec AllDelivered observes eSubmit, eDeliver {
  var inTransit: int;

  start cold state NothingOwed {
    on eSubmit goto Owed with (batch: seq[int]) {
      inTransit = inTransit + sizeof(batch);
    }
  }

  hot state Owed {
    on eSubmit do (batch: seq[int]) {
      inTransit = inTransit + sizeof(batch);
    }
    on eDeliver do (payload: int) {
      inTransit = inTransit - 1;
      if (inTransit == 0) {
        goto NothingOwed;
      }
    }
  }
}
