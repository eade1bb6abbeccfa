// pcheck-args: -S bfs -q --max-inbox 5 --inbox-overflow-is-bug --mem 64M
// A producer that never stops sending to a consumer that never takes the
// event: the sixth send is a bug (asked for: --inbox-overflow-is-bug), by bfs.
event eData;
event eNever;

machine Consumer {
  start state Wait {
    defer eData;
    on eNever goto Wait;
  }
}

machine Main {
  var c: Consumer;
  start state Run {
    entry {
      c = new Consumer();
      while (true) { send c, eData; }
    }
  }
}
