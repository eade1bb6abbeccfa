// pcheck-args: --search dfs --mem 64M -q
// A deadlock names every machine blocked in receive, where each waits and
// for which events: Main waits for eAck from Peer, Peer for eGo from Main.
event eAck;
event eGo;
event eStop;
machine Main {
  start state Init {
    entry {
      new Peer();
      receive {
        case eAck: { }
        case eStop: { }
      }
    }
  }
}
machine Peer {
  start state Init {
    entry {
      receive { case eGo: { } }
    }
  }
}
