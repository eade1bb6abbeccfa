/* Test drivers: a producer submitting numMessages messages, a sender and a
   receiver with a window and a sequence number space, a consumer, and the
   network: whatever machine the test's module binds to the interface
   Network (the lossy one, or the perfect one). */
type tDeliveryConfig = (numMessages: int, window: int, seqSpace: int, bug: tDeliveryBug);

/* Three messages, window 2, sequence numbers modulo 4: the third message
   reuses no number, but the window moves. */
machine TestThreeMessages {
  start state Init {
    entry { SetupDelivery((numMessages = 3, window = 2, seqSpace = 4, bug = DELIVERY_NONE)); }
  }
}

/* Alternating bit: window 1, sequence numbers modulo 2, three messages
   (the third reuses number 0). */
machine TestAlternatingBit {
  start state Init {
    entry { SetupDelivery((numMessages = 3, window = 1, seqSpace = 2, bug = DELIVERY_NONE)); }
  }
}

/* Five messages, window 2, modulo 4: the fifth reuses number 0, with
   retransmissions of the first ones possibly still about. */
machine TestFiveMessages {
  start state Init {
    entry { SetupDelivery((numMessages = 5, window = 2, seqSpace = 4, bug = DELIVERY_NONE)); }
  }
}

/* The seeded bugs. */
machine BugSmallSeqSpace {
  start state Init {
    // sequence numbers modulo the window (2) instead of twice the window
    entry { SetupDelivery((numMessages = 3, window = 2, seqSpace = 2, bug = DELIVERY_SMALL_SEQ_SPACE)); }
  }
}

machine BugNoReorder {
  start state Init {
    entry { SetupDelivery((numMessages = 3, window = 2, seqSpace = 4, bug = DELIVERY_NO_REORDER)); }
  }
}

machine BugNoReack {
  start state Init {
    entry { SetupDelivery((numMessages = 3, window = 2, seqSpace = 4, bug = DELIVERY_NO_REACK)); }
  }
}

fun SetupDelivery(cfg: tDeliveryConfig) {
  var network: Network;
  var consumer: Consumer;
  var receiver: Receiver;
  var sender: Sender;
  network = new Network();
  consumer = new Consumer();
  receiver = new Receiver((network = network, consumer = consumer, window = cfg.window,
                           seqSpace = cfg.seqSpace, bug = cfg.bug));
  sender = new Sender((network = network, receiver = receiver, window = cfg.window, seqSpace = cfg.seqSpace));
  new Producer((sender = sender, numMessages = cfg.numMessages));
}
