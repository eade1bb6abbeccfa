// pcheck-args: -S dfs -q --max-step-instructions 100000 --mem 64M
// A handler whose loop never ends: the step is a bug ("endless step"),
// placed in the loop, with its trace; pcheck does not hang.
machine Main {
  var n: int;
  start state Init {
    entry {
      n = 0;
      while (n >= 0) {
        n = n + 1;
        if (n > 1000000) { n = 1; }
      }
    }
  }
}
