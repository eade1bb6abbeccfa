/* A network link: a FIFO channel from one server to another (a TCP
   connection). Messages on different links are not ordered with respect to
   each other, so a message can be overtaken by messages another server sent
   later. The environment can cut a link (it then drops what it forwards,
   like a partitioned network) and heal it. */
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
