// pcheck-args: --search dfs --mem 64M -o $TMP
// DFS finds the deadlock: Main waits for an event that is never sent,
// but only when the choice is true.
event eNever;
machine Main {
  start state S {
    entry {
      if ($) { receive { case eNever: { } } }
    }
  }
}
