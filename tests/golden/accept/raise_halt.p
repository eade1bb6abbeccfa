// pcheck-args: --search random --seed 1 --schedules 20
// raise halt stops the machine at once; the rest of its inbox is dropped.
event ePing;
machine Worker {
  start state S {
    on ePing do { raise halt; }
  }
}
machine Main {
  start state S {
    entry { var w: Worker; w = new Worker(); send w, ePing; send w, ePing; send w, ePing; }
  }
}
