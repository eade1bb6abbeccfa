// pcheck-args: --search dfs --mem 64M
// States worked out by hand: three choose(2) added into x. The initial
// state, then 1, 2, 3 and 4 states (x ranges over 0..k after k choices,
// and equal values are equal States): 1 + 1 + 2 + 3 + 4 = 11.
machine Main {
  var x: int;
  start state S {
    entry {
      var i: int;
      while (i < 3) {
        x = x + choose(2);
        i = i + 1;
      }
    }
  }
}
