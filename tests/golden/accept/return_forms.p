// pcheck-args: --search random --seed 1 --schedules 20
// return with and without a value; early return.
fun Sign(x: int) : int {
  if (x < 0) { return -1; }
  if (x == 0) { return 0; }
  return 1;
}
fun Nothing(x: int) { if (x > 0) { return; } print "not positive"; }
machine Main {
  start state S { entry { assert Sign(-5) == -1 && Sign(0) == 0 && Sign(3) == 1; Nothing(1); } }
}
