// pcheck-args: --search random --seed 1 --schedules 1 -v
// print of a string and of format with several arguments.
machine Main {
  start state S { entry { print "plain"; print format("{0} + {1} = {2}", 1, 2, 1 + 2); } }
}
