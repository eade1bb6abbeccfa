/* A network link: a FIFO channel to one machine (a TCP connection).
   Messages on different links are not ordered with respect to each other. */
type tPacket = (ev: event, payload: any);
event ePacket : tPacket;

machine Link {
  var dst: machine;

  start state Forwarding {
    entry (d: machine) {
      dst = d;
    }
    on ePacket do (p: tPacket) {
      send dst, p.ev, p.payload;
    }
  }
}
