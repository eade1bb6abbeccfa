// pcheck-args: -S dfs --mem 1G
// 'hot' or 'cold' on a state of an ordinary machine: P's grammar allows it
// and its compiler ignores it; pcheck warns and ignores it too (no liveness
// bug: only a spec's states have a temperature).
machine Main {
  start hot state S { entry { goto T; } }
  cold state T { }
}
