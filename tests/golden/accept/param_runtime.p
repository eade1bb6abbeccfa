// pcheck-args: --search random --seed 1 --schedules 1 -v
// A param test instance runs with its values.
param n : int;
machine Main {
  start state S { entry { print format("n is {0}", n); assert n == 3; } }
}
test param (n in [3]) tcN [main=Main]: { Main };
