// pcheck-args: --search random --seed 1 --schedules 20
// Recursion through a global function.
fun Fib(n: int) : int { if (n < 2) { return n; } return Fib(n - 1) + Fib(n - 2); }
machine Main { start state S { entry { assert Fib(10) == 55; } } }
