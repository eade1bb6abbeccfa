// A large hot strongly connected component reached at a shallow depth:
// each round Main picks x and y among 60 values each and pings itself, the
// spec hot throughout.  Every state of the component stays on the
// hot-cycle search's stack until the component is complete (about 14000
// States): under --frontier-mem 4M (1 MiB for that search) it gives up and
// the search ends bounded, saying why; with the default memory, the fair
// hot cycle is found (each choice strongly fair: the cycle takes each of
// the 60 options at every choice it passes, about 870,000 steps).
event ePing; event eStart; event eDone;
spec Finishes observes eStart, eDone {
  start cold state Idle { on eStart goto Busy; }
  hot state Busy { on eDone goto Idle; }
}
machine Main {
  var x: int; var y: int;
  start state S {
    entry { announce eStart; send this, ePing; }
    on ePing do { x = choose(60); y = choose(60); send this, ePing; }
  }
}
