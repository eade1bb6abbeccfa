// pcheck-args: --dump-bytecode
// Codegen: a global function with a while loop, a foreach, short-circuit
// operators and a call; the listing shows every instruction with its line.
fun Sum(s: seq[int]) : int {
  var x: int;
  var total: int;
  foreach (x in s) {
    if (x > 10 && x != 13) { continue; }
    total = total + x;
  }
  while (total > 100 || total < 0) { total = total / 2; }
  return total;
}
machine Main {
  var r: int;
  start state S {
    entry { r = Sum(default(seq[int])); }
  }
}
