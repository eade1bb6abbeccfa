/* A data transfer protocol over a line that corrupts at most one message:
   the P twin of dtp.pml in this folder (SPIN's dtp.pml), statement for
   statement where the languages allow. The sender sends N data blocks and a
   last block, then a zak that ends the transfer; the receiver acks or naks,
   and asks again after a checksum error; both give up (assert(0) at F)
   after too many retries.
   - dtp.pml's four channels of QSZ slots are the machines' inboxes
     (unbounded in P; the benchmark runs dtp.pml with QSZ = 8, at which no
     send finds its channel full; RtoC is declared there but never used);
   - the sender's poll `if :: len(inp) > 0 -> state = 2 :: len(inp) == 0 fi'
     (s1) is P's dequeue: the state Polling handles a message when its
     inbox has one (s7 reads it), and runs `on null' when it has none;
   - a blocking read `inp?t,seqno' is a `receive';
   - dtp.pml's labels (s1 ... s14, F, S) are a variable `pc' in the
     receiver, functions in the sender; F is `assert false', S the end;
   - branches on negative message types (-1 ... -4) are left out: no
     process ever sends one, so they never run (readStat stays 0, and the
     receiver's s2, s7 and s13 are unreachable).
   Message types keep SPIN's mtype numbers; NOTYPE is the receiver's
   initial lasttyp, 0. */
param N : int;

enum tType { NOTYPE = 0, ACK = 1, CAN = 2, CRCCK = 3, DATA8 = 4, LAST8 = 5, NAK = 6, QUERY8 = 7, RVNAK = 8, ZAK = 9 }
type tMsg = (t: tType, seqno: int);
event eMsg : tMsg;

/* proctype channel(chan inp, out): forwards each message, or (once, never a
   zak) replaces it with a checksum error. */
machine Channel {
  var out: Receiver;
  var cnt: int;

  start state Start {
    entry (r: Receiver) {
      out = r;
      goto Loop;
    }
  }

  state Loop {
    on eMsg do (m: tMsg) {
      if (cnt == 0 && m.t != ZAK && $) {
        cnt = cnt + 1;
        send out, eMsg, (t = CRCCK, seqno = m.seqno);
      } else {
        send out, eMsg, m;
      }
    }
  }
}

/* proctype sender(chan inp, out); it also does init's job: it creates the
   receiver and the channel. */
machine Sender {
  var out: Channel;
  var rcvrrdy: bool;
  var st: int;            // state
  var t: tType;
  var typ: tType;         // type
  var seqno: int;
  var toff: int;
  var offset: int;
  var retries: int;
  var maxretries: int;

  start state Start {
    entry {
      var r: Receiver;
      r = new Receiver(this);
      out = new Channel(r);
      offset = 0;
      retries = 0;
      maxretries = 6;
      rcvrrdy = false;
      st = 2;
      goto Polling;
    }
  }

  /* s1 */
  state Polling {
    on eMsg do (m: tMsg) {        // len(inp) > 0 -> state = 2; s2 -> s7
      st = 2;
      if (S7(m)) {
        goto Success;
      }
    }
    on null do {                  // len(inp) == 0; s2
      if (st == 0) {
        S3();
      } else if (st == 1) {
        S4();
      } else if (st == 2) {
        receive {
          case eMsg: (m: tMsg) {
            if (S7(m)) {
              goto Success;
            }
          }
        }
      }
      // state >= 3: back to s1
    }
  }

  /* S: skip; end: do :: inp?t,seqno od */
  state Success {
    ignore eMsg;
  }

  fun S3() {
    send out, eMsg, (t = QUERY8, seqno = offset);
    st = 2;
  }

  /* s4, then s6 */
  fun S4() {
    if (offset < N) {
      typ = DATA8;
    } else {
      typ = LAST8;
    }
    if (retries > 0) {
      typ = QUERY8;
    }
    send out, eMsg, (t = typ, seqno = offset);
    offset = offset + 1;
    if (typ == QUERY8 || typ == LAST8) {
      st = 2;
    }
  }

  /* s5, then F */
  fun S5() {
    send out, eMsg, (t = CAN, seqno = -1);
    assert false, "sender: failure (F)";
  }

  /* s7: the message read; true when the transfer is over (S) */
  fun S7(m: tMsg) : bool {
    t = m.t;
    seqno = m.seqno;
    if (t == ZAK) {                       // s8
      offset = seqno;
      send out, eMsg, (t = ZAK, seqno = offset);
      return true;
    } else if (t == ACK) {                // s9
      toff = seqno;
      S10();
    } else if (t == NAK) {
      S12();
    } else if (t == CRCCK) {
      S13();
    } else {
      S5();
    }
    return false;
  }

  fun S10() {
    retries = 0;
    if (offset > toff) {                  // worthless ack
      return;
    }
    offset = toff;
    S11();
  }

  fun S11() {
    if (!rcvrrdy) {                       // ack/nak received - start transmit
      rcvrrdy = true;
      maxretries = 5;
      retries = 0;
    }
    st = 1;
  }

  fun S12() {
    toff = seqno;
    if (toff >= offset) {
      S10();
      return;
    }
    retries = retries + 1;
    if (retries >= maxretries) {
      S5();
      return;
    }
    offset = toff;
    S11();
  }

  fun S13() {
    if (retries >= maxretries) {
      S5();
      return;
    }
    if (rcvrrdy) {
      st = 1;
    } else {
      st = 0;
    }
  }
}

/* proctype receiver(chan inp, out) */
machine Receiver {
  var out: Sender;
  var st: int;            // state
  var lasttyp: tType;
  var offset: int;
  var retries: int;
  var lastack: int;
  var cnt: int;
  var seqno: int;
  var rtype: tType;
  var typ: tType;         // type
  var respreq: bool;
  var typ2: tType;        // typ

  start state Start {
    entry (s: Sender) {
      out = s;
      offset = 0;
      st = 0;
      lasttyp = NOTYPE;
      retries = 0;
      lastack = 0;
      rtype = NAK;
      Run();
      goto Ended;
    }
  }

  /* the receiver has reached S and ended; what reaches its channel
     afterwards stays there */
  state Ended {
    defer eMsg;
  }

  /* From s4 until S; pc is the label dtp.pml would be at. */
  fun Run() {
    var pc: int;
    pc = 4;
    while (true) {
      if (pc == 3) {
        retries = retries + 1;
        if (retries >= 7) {
          send out, eMsg, (t = CAN, seqno = -1);
          assert false, "receiver: failure (F)";
        }
        if (retries == 0) {
          st = 3;
        } else {
          st = 0;                                   // send nak state
        }
        pc = 4;
      } else if (pc == 4) {
        if (st == 0) {
          pc = 5;
        } else if (st == 1) {
          pc = 6;
        } else if (st == 2) {
          pc = 12;
        } else {
          return;                                   // S
        }
      } else if (pc == 5) {
        send out, eMsg, (t = rtype, seqno = offset);
        st = 1;
        pc = 4;
      } else if (pc == 6) {
        receive {
          case eMsg: (m: tMsg) {
            typ = m.t;
            seqno = m.seqno;
          }
        }
        rtype = NAK;
        typ2 = ACK;
        if (typ == CRCCK) {
          pc = 3;
        } else if (typ == LAST8) {
          pc = 8;
        } else if (typ == QUERY8) {
          pc = 9;
        } else if (typ == DATA8) {
          pc = 10;
        } else {
          pc = 11;
        }
      } else if (pc == 8) {
        typ2 = ZAK;
        st = 2;
        pc = 9;
      } else if (pc == 9) {
        rtype = NAK;
        respreq = true;
        pc = 10;
      } else if (pc == 10) {
        if (seqno > offset) {
          pc = 3;
        } else {
          if (seqno == offset) {
            cnt = 1;
          } else {
            cnt = 0;
          }
          offset = offset + cnt;
          if (respreq) {
            send out, eMsg, (t = typ2, seqno = offset);
            lastack = offset;
            lasttyp = typ2;
          }
          if (typ2 == ZAK) {
            retries = -2;
          } else {
            retries = 2;
          }
          pc = 4;
        }
      } else if (pc == 11) {
        send out, eMsg, (t = CAN, seqno = -1);
        assert false, "receiver: failure (F)";
      } else if (pc == 12) {
        receive {
          case eMsg: (m: tMsg) {
            typ = m.t;
            seqno = m.seqno;
          }
        }
        if (typ == QUERY8 || typ == LAST8 || typ == DATA8 || typ == CRCCK) {
          pc = 14;
        } else {
          return;                                   // S
        }
      } else if (pc == 14) {
        send out, eMsg, (t = lasttyp, seqno = lastack);
        retries = -2;
        pc = 4;
      }
    }
  }
}

test param (N in [1, 2, 3]) tcDtp [main=Sender]: { Sender, Channel, Receiver };
test param (N in [4]) tcDtpFiveBlocks [main=Sender]: { Sender, Channel, Receiver };
