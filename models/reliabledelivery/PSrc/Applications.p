/* The applications at the two ends: a producer that submits a batch of
   numMessages messages (payloads 1, 2, ...) to the sender, and a consumer
   that takes what the receiver delivers and checks that it is the next
   message. */
machine Producer {
  start state Init {
    entry (cfg: tProducerConfig) {
      var i: int;
      var batch: seq[int];
      while (i < cfg.numMessages) {
        batch += (i, i + 1);
        i = i + 1;
      }
      send cfg.sender, eSubmit, batch;
    }
  }
}

machine Consumer {
  var received: int;

  start state Consuming {
    on eDeliver do (payload: int) {
      received = received + 1;
      assert payload == received, format("consumer got message {0} as message {1}", payload, received);
    }
  }
}
