// pcheck-args: --search bfs --mem 64M -o $TMP
// BFS reports a shortest counterexample: the assertion fails after the
// third choice on one branch and after the first on the other.
machine Main {
  start state S {
    entry {
      if ($) {
        if ($) { if ($) { assert false, "deep"; } }
      } else {
        assert false, "shallow";
      }
    }
  }
}
