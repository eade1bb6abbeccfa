// pcheck-args: --search random --seed 1 --schedules 1 -v
// A spec runs synchronously on send and announce, before the enqueue.
event eReq : int; event eNote : string;
spec Watch observes eReq, eNote {
  var seen: int;
  start state Count {
    on eReq do (x: int) { seen = seen + x; }
    on eNote do (s: string) { assert seen == 3, format("spec saw {0} before the note", seen); }
  }
}
machine Main {
  start state Init {
    entry {
      send this, eReq, 1;
      send this, eReq, 2;
      announce eNote, "both sent";
    }
    on eReq do (x: int) { }
  }
}
