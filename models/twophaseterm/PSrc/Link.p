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

// Sends e to dst through a link (dst is the link), or straight to dst.
fun Transmit(dst: machine, viaLinks: bool, e: event, payload: any) {
  if (viaLinks) {
    send dst, ePacket, (ev = e, payload = payload);
  } else {
    send dst, e, payload;
  }
}
