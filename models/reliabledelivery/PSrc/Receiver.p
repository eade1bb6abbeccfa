/* The receiver: delivers the messages in order, each once. It expects
   message `expected` next and accepts any message of its window
   [expected, expected + window), buffering those that arrive early. A
   packet's message is recovered from its sequence number: the one of the
   window with that number modulo seqSpace. A sequence number outside the
   window can only be a retransmission of a message already delivered
   (with seqSpace >= 2 * window, the window and the `window` messages
   before it have distinct numbers). Every packet is acknowledged, new or
   old: the acknowledgement of an old one may have been lost. */
machine Receiver {
  var network: Network;
  var consumer: Consumer;
  var window: int;
  var seqSpace: int;
  var bug: tDeliveryBug;
  var expected: int;               // the next message to deliver
  var buffered: map[int, int];     // messages of the window received early -> payload
  var delivered: set[int];         // BUG NoReorder only: the messages delivered

  start state Init {
    entry (cfg: tReceiverConfig) {
      network = cfg.network;
      consumer = cfg.consumer;
      window = cfg.window;
      seqSpace = cfg.seqSpace;
      bug = cfg.bug;
      goto Receiving;
    }
  }

  state Receiving {
    on eData do (p: tDataPacket) {
      var n: int;
      var isNew: bool;
      // the message of the window with this sequence number
      n = expected + (p.seqNum - expected % seqSpace + seqSpace) % seqSpace;
      isNew = n < expected + window;
      if (bug == DELIVERY_NO_REORDER) {
        // BUG NoReorder: "the network keeps packets in order", so a new
        // message is delivered at once, without waiting for the ones
        // before it. A retransmission of a lost packet then arrives after
        // the messages sent behind it, and is delivered after them.
        if (isNew && !(n in delivered)) {
          send consumer, eDeliver, p.payload;
          delivered += (n);
          while (expected in delivered) {
            expected = expected + 1;
          }
        }
      } else if (isNew) {
        buffered[n] = p.payload;
        while (expected in buffered) {
          send consumer, eDeliver, buffered[expected];
          buffered -= (expected);
          expected = expected + 1;
        }
      }
      if (bug == DELIVERY_NO_REACK && !isNew) {
        // BUG NoReack: a retransmission of a message already delivered is
        // dropped without an acknowledgement ("it was acknowledged
        // already"). If that acknowledgement was lost, the sender
        // retransmits the message for ever unanswered: its window never
        // moves past it.
        return;
      }
      send network, eSendAck, (sender = p.sender, seqNum = p.seqNum);
    }
  }
}
