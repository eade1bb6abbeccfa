/* The sender: selective repeat. Messages are numbered from 0 in the order
   they are submitted; message n travels with sequence number
   n % seqSpace. At most `window` messages are out, from the oldest one not
   yet acknowledged (the base) on. Each message is acknowledged on its own;
   an acknowledgement names a sequence number, which within the window
   names one message. A message whose packet or acknowledgement was lost is
   retransmitted when its timeout fires (`ePacketLost`, see Network.p). */
machine Sender {
  var network: Network;
  var receiver: Receiver;
  var window: int;
  var seqSpace: int;
  var messages: seq[int];     // every message submitted; message n is messages[n]
  var unacked: set[int];      // the messages out and not yet acknowledged
  var nextToSend: int;        // the first message not yet sent

  start state Init {
    entry (cfg: tSenderConfig) {
      network = cfg.network;
      receiver = cfg.receiver;
      window = cfg.window;
      seqSpace = cfg.seqSpace;
      goto Sending;
    }
  }

  state Sending {
    on eSubmit do (batch: seq[int]) {
      var i: int;
      while (i < sizeof(batch)) {
        messages += (sizeof(messages), batch[i]);
        i = i + 1;
      }
      FillWindow();
    }

    on eAck do (seqNum: int) {
      var n: int;
      n = Outstanding(seqNum);
      if (n >= 0) {
        unacked -= (n);
        FillWindow();
      }
    }

    on ePacketLost do (seqNum: int) {
      var n: int;
      n = Outstanding(seqNum);
      if (n >= 0) {
        Transmit(n);
      }
    }
  }

  /* The oldest message not yet acknowledged; nextToSend when all are. */
  fun Base() : int {
    var i: int;
    var base: int;
    base = nextToSend;
    while (i < sizeof(unacked)) {
      if (unacked[i] < base) {
        base = unacked[i];
      }
      i = i + 1;
    }
    return base;
  }

  /* Send the messages that fit in the window [Base(), Base() + window). */
  fun FillWindow() {
    while (nextToSend < sizeof(messages) && nextToSend < Base() + window) {
      unacked += (nextToSend);
      Transmit(nextToSend);
      nextToSend = nextToSend + 1;
    }
  }

  /* The unacknowledged message with this sequence number, or -1. */
  fun Outstanding(seqNum: int) : int {
    var i: int;
    while (i < sizeof(unacked)) {
      if (unacked[i] % seqSpace == seqNum) {
        return unacked[i];
      }
      i = i + 1;
    }
    return -1;
  }

  fun Transmit(n: int) {
    send network, eSendData, (sender = this, receiver = receiver, seqNum = n % seqSpace, payload = messages[n]);
  }
}
