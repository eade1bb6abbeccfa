// pcheck-args: -S dfs -q --max-collection 50 --mem 64M
// A machine that appends to a seq for ever: not a bug, but the search
// stops where the seq would pass --max-collection and says so (bounded),
// with the way there.
event eNext;

machine Main {
  var log: seq[int];
  start state Run {
    entry { send this, eNext; }
    on eNext do {
      log += (sizeof(log), sizeof(log));
      send this, eNext;
    }
  }
}
