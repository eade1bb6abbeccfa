/* The lossy network: forwards each packet, data or acknowledgement, or
   loses it, by a fair coin ($$): it may lose any number of packets in a
   row, but not every time forever.

   A sender finds out about a loss when the packet's retransmission timer
   fires. The model lets the network fire it: when it drops a packet it
   tells the sender which sequence number timed out (`ePacketLost`). A
   packet is thus retransmitted only when it or its acknowledgement was
   lost, and the number of packets in flight stays bounded (a timer that
   could fire at any time would let a starved receiver's inbox grow without
   bound). Timeouts that fire while a packet is still on its way are left
   out: see README.md. */
machine Network {
  start state Up {
    on eSendData do (p: tDataPacket) {
      if ($$) {
        send p.receiver, eData, p;
      } else {
        send p.sender, ePacketLost, p.seqNum;
      }
    }

    on eSendAck do (a: tAckPacket) {
      if ($$) {
        send a.sender, eAck, a.seqNum;
      } else {
        send a.sender, ePacketLost, a.seqNum;
      }
    }
  }
}

/* The perfect network: the abstraction the endpoints are written against.
   It delivers every packet, in order; nothing is ever lost. Bound to the
   interface Network (module PerfectNet), it checks the protocol without
   losses, at a fraction of the states. */
machine PerfectNetwork {
  start state Up {
    on eSendData do (p: tDataPacket) {
      send p.receiver, eData, p;
    }

    on eSendAck do (a: tAckPacket) {
      send a.sender, eAck, a.seqNum;
    }
  }
}
