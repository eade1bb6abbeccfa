// pcheck-args: -S bfs -q --mem 64M --max-inbox 0 --max-state-bytes 4K
// An inbox that grows without end, with --max-inbox off: the State
// passes --max-state-bytes, and bfs stops there (bounded) with the way
// there.  tests/memory.sh runs it under every search with --mem.
event eData: int;
event eNever;
machine Consumer {
  start state Wait {
    defer eData;
    on eNever goto Wait;
  }
}
machine Main {
  var c: Consumer;
  var i: int;
  start state Run {
    entry {
      c = new Consumer();
      while (true) { i = i + 1; send c, eData, i; }
    }
  }
}
