/* A network link: a FIFO channel to one machine (a TCP connection). Two
   links are not ordered with respect to each other, so a message can be
   overtaken by one its sender sent later to someone else. The environment
   can cut a link (it then drops what it forwards, as in a partition) and
   heal it. Clients reach replicas through links too (one per session and
   replica). */
type tPacket = (ev: event, payload: any);
event ePacket : tPacket;
event eCut : bool;

machine Link {
  var dst: machine;
  var cut: bool;

  start state Forwarding {
    entry (d: machine) {
      dst = d;
    }
    on ePacket do (p: tPacket) {
      if (!cut) {
        send dst, p.ev, p.payload;
      }
    }
    on eCut do (c: bool) {
      cut = c;
    }
  }
}
