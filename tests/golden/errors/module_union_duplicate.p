// P: a union cannot bind the same interface (machine) in two of its parts.
machine Worker { start state S { } }
machine Main { start state S { entry { new Worker(); } } }
module W = { Worker };
test tc [main=Main]: (union W, { Main, Worker });
