/* The alternating bit protocol: the P twin of abp.pml in this folder
   (SPIN's abp.pml, with a data value counted modulo N and the receiver's
   assertion that it accepts the values in order).
   - abp.pml's channels `sender' and `receiver' (one slot each) are the two
     machines' inboxes; at most one message or ack is ever in flight, so the
     slot never fills;
   - abp.pml's sender retransmits on `timeout', which SPIN makes executable
     only when no other statement of the system is: here exactly when
     nothing is in flight (the receiver waits for a message, the sender's
     channel is empty). P has no such global test. The twin sends where
     that timeout would fire (entering a phase, and after a wrong ack), and
     the loss, `skip' instead of the send, leaves nothing in flight, so the
     timeout fires again at once: `while ($) {}' chooses to lose the
     message any number of times, then sends it. The losses are a
     self-loop in both state spaces.
   BUG (tests): the sender moves to the next value as soon as it has sent
   (abp.pml with -DBUG). */
param N : int;
param BUG : bool;

event eMsg : (bit: int, d: int);    // msg0 / msg1, with the data value
event eAck : int;                   // ack0 / ack1

machine Sender {
  var receiver: Receiver;
  var value: int;

  start state Init {
    entry {
      receiver = new Receiver(this);
      goto Phase1;
    }
  }

  /* phase(msg1, ack1, ack0) */
  state Phase1 {
    entry { Timeout(1); }
    on eAck do (a: int) {
      if (a == 1) {
        value = (value + 1) % N;
        goto Phase0;
      }
      Timeout(1);
    }
  }

  /* phase(msg0, ack0, ack1) */
  state Phase0 {
    entry { Timeout(0); }
    on eAck do (a: int) {
      if (a == 0) {
        value = (value + 1) % N;
        goto Phase1;
      }
      Timeout(0);
    }
  }

  // timeout -> if :: receiver!msg,value :: skip /* lose message */ fi
  fun Timeout(bit: int) {
    while ($) { }
    send receiver, eMsg, (bit = bit, d = value);
    if (BUG) {
      value = (value + 1) % N;
    }
  }
}

machine Receiver {
  var sender: Sender;
  var expect: int;

  start state Init {
    entry (s: Sender) {
      sender = s;
      goto Recv1;
    }
  }

  /* recv(msg1, ack1, msg0, ack0) */
  state Recv1 {
    on eMsg do (m: (bit: int, d: int)) {
      if (m.bit == 1) {
        Accept(m.d);
        send sender, eAck, 1;
        goto Recv0;
      }
      send sender, eAck, 0;
    }
  }

  /* recv(msg0, ack0, msg1, ack1) */
  state Recv0 {
    on eMsg do (m: (bit: int, d: int)) {
      if (m.bit == 0) {
        Accept(m.d);
        send sender, eAck, 0;
        goto Recv1;
      }
      send sender, eAck, 1;
    }
  }

  fun Accept(d: int) {
    assert d == expect, format("accepted {0}, expected {1}", d, expect);
    expect = (expect + 1) % N;
  }
}

test param (N in [2, 3, 16, 128]) tcAbp [main=Sender]: { Sender, Receiver };
test param (N in [3], BUG in [true]) tcBugAbp [main=Sender]: { Sender, Receiver };
